-- wrk script for make soak: a mix of immediate hits, delayed hits, faults, misses and sequences.
local paths = {
  "/zen", "/zen", "/zen", "/users/octocat", "/users/octocat/repos?sort=updated&per_page=2",
  "/soak/delayed", "/soak/reset", "/soak/empty", "/soak/garbage", "/soak/sequence",
  "/soak/miss-" , "/users/octocats",
}
local counter = 0
request = function()
  counter = counter + 1
  local path = paths[(counter % #paths) + 1]
  if path == "/soak/miss-" then path = path .. counter end
  return wrk.format("GET", path, {["Authorization"] = "Bearer soak-token"})
end
