-- What both of the Ardour test's scripts use (create.lua and reopen.lua load it with
-- dofile): Spindle's insert on the session's track and Ardour's control of its level.
LEVEL = "property-urn:spindle:lv2#level"

function fail(message)
  print("FAILED: " .. message)
  close_session()
  quit()
  os.exit(1)
end

-- The Spindle insert on the first track, and its plugin.
function spindle_insert()
  for route in Session:get_routes():iter() do
    local i = 0
    while not route:nth_plugin(i):isnil() do
      local proc = route:nth_plugin(i)
      local insert = proc:to_insert()
      if not insert:isnil() and insert:plugin(0):unique_id() == "urn:spindle:lv2" then
        return proc, insert:plugin(0), route
      end
      i = i + 1
    end
  end
  fail("no Spindle plugin in the session")
end

-- Ardour makes a control of each numeric patch:writable parameter.
function level_control(proc)
  local automatable = proc:to_automatable()
  for param in automatable:all_automatable_params():iter() do
    local control = automatable:automation_control(param, false)
    if control:name() == LEVEL then return control end
  end
  fail("Ardour made no control of Spindle's level")
end
