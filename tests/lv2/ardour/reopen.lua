-- ardour7-lua -- reopen.lua SESSION_DIR NAME SNAPSHOT
-- Opens the saved session in a fresh process (Ardour restores the plugin's state) and
-- saves it again as the snapshot SNAPSHOT: the plugin's state there is what it holds
-- after the restore. Prints the level Ardour's own control reads.
local dir, name, snapshot = arg[1], arg[2], arg[3]
dofile((debug.getinfo(1, "S").source:sub(2):match("(.*/)") or "./") .. "common.lua")

if not load_session(dir, name) then print("FAILED: cannot open the session " .. dir) os.exit(1) end
local proc = spindle_insert()
-- The replies of the restored plugin (patch:Set on its notify port) reach Ardour in
-- the first cycles.
ARDOUR.LuaAPI.usleep(300000)
print(string.format("Ardour's level control: %.2f", level_control(proc):get_value()))
if Session:save_state(snapshot, false, false, false, false, false) ~= 0 then fail("cannot save " .. snapshot) end
print("saved " .. snapshot)
close_session()
quit()
