-- ardour7-lua -- create.lua SESSION_DIR NAME NOTES_TXT LEVEL_DB
-- A new session with one MIDI track playing Spindle: the instrument comes from the LV2
-- preset "urn:spindle:test#instrument" (its state names the file; Ardour restores it
-- through the plugin's state interface), the level from Ardour's control of the
-- plugin's level parameter (a patch:Set in run()). The notes of NOTES_TXT go into a
-- MIDI region, whose length sets the session range; the session is saved and closed.
local dir, name, notes_file, level = arg[1], arg[2], arg[3], tonumber(arg[4])
dofile((debug.getinfo(1, "S").source:sub(2):match("(.*/)") or "./") .. "common.lua")

local ppqn, last = nil, nil
local notes = {}
for line in io.lines(notes_file) do
  local p, e = line:match("^# ppqn (%d+) end (%d+)")
  if p then ppqn, last = tonumber(p), tonumber(e)
  else
    local tick, length, key, velocity = line:match("^(%d+) (%d+) (%d+) (%d+)")
    if tick then table.insert(notes, {tonumber(tick), tonumber(length), tonumber(key), tonumber(velocity)}) end
  end
end
if not ppqn or #notes == 0 then print("FAILED: no notes in " .. notes_file) os.exit(1) end

if not create_session(dir, name, 48000) then print("FAILED: cannot create a session in " .. dir) os.exit(1) end
local spindle = ARDOUR.LuaAPI.new_plugin_info("urn:spindle:lv2", ARDOUR.PluginType.LV2)
if spindle:isnil() then fail("Ardour does not find urn:spindle:lv2 (LV2_PATH)") end
local tracks = Session:new_midi_track(ARDOUR.ChanCount(ARDOUR.DataType("midi"), 1),
  ARDOUR.ChanCount(ARDOUR.DataType("audio"), 2), true, spindle, nil, nil, 1, "Spindle",
  ARDOUR.PresentationInfo.max_order, ARDOUR.TrackMode.Normal, true)
if tracks:size() ~= 1 then fail("cannot add a MIDI track with Spindle") end
local track = tracks:front()
local proc, plugin = spindle_insert()

local preset = plugin:preset_by_uri("urn:spindle:test#instrument")
if not preset or not preset.valid then fail("Ardour does not list the test's preset (LV2_PATH)") end
if not plugin:load_preset(preset) then fail("the preset did not load") end
level_control(proc):set_value(level, PBD.GroupControlDisposition.NoGroup)

-- An empty MIDI region: Ardour's Lua has no MIDI import without the editor, but a
-- bounce of the empty track's MIDI makes a region the notes can be written into.
local region = track:bounce_range(0, last, ARDOUR.InterThreadInfo(), ARDOUR.LuaAPI.nil_proc(), false, "song")
if region:isnil() then fail("cannot make a MIDI region") end
local model = region:to_midiregion():model()
local command = model:new_note_diff_command("song")
local function beats(ticks) return Temporal.Beats(ticks // ppqn, ticks % ppqn) end
for _, n in ipairs(notes) do
  command:add(ARDOUR.LuaAPI.new_noteptr(0, beats(n[1]), beats(n[2]), n[3], n[4]))
end
model:apply_command(Session, command)
-- Inside an "insert region" command, as the editor's, so Ardour sets the session range
-- (ardour7-export exports the session range).
Session:begin_reversible_command("insert region")
track:playlist():add_region(region, Temporal.timepos_t(0), 1, false)
Session:commit_reversible_command(nil)

-- The level's patch:Set reaches run() in the next cycles, and the engine through the
-- plugin's worker; the state saved below reads the level the plugin holds.
ARDOUR.LuaAPI.usleep(300000)
if Session:save_state("", false, false, false, false, false) ~= 0 then fail("cannot save the session") end
print("saved " .. dir)
close_session()
quit()
