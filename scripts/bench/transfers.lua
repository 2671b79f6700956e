-- wrk script: POST /v1/transfers between users made by `skiff-server seed-users` (their JSON lines file).
--   wrk -t2 -c64 -d20s -s scripts/bench/transfers.lua http://127.0.0.1:8080 -- users.jsonl random|hot
-- random: a random payer to a random other user; hot: every payer to the first user (one hot payee).
-- Amounts are 1 to 500 cents, under the step-up amount and far under the day's limit; every request has a key
-- of its own. Non-2xx answers are counted by wrk ("Non-2xx or 3xx responses").

local threads = {}
local counter = 0

function setup(thread)
  table.insert(threads, thread)
  thread:set("id", #threads)
end

local function load(path)
  local users = {}
  for line in io.lines(path) do
    local id = line:match('"userId":"([^"]+)"')
    local token = line:match('"token":"([^"]+)"')
    if id and token then table.insert(users, { id = id, token = token }) end
  end
  return users
end

function init(args)
  users = load(args[1])
  mode = args[2] or "random"
  math.randomseed(os.time() * 1000 + id)
end

function request()
  counter = counter + 1
  local payee = 1
  local payer
  if mode == "hot" then
    payer = math.random(2, #users)
  else
    payer = math.random(1, #users)
    payee = math.random(1, #users - 1)
    if payee >= payer then payee = payee + 1 end
  end
  local body = string.format('{"recipientId":"%s","amountMinor":%d,"currency":"USD"}', users[payee].id, math.random(1, 500))
  return wrk.format("POST", "/v1/transfers", {
    ["Authorization"] = "Bearer " .. users[payer].token,
    ["Content-Type"] = "application/json",
    ["Idempotency-Key"] = string.format("wrk-%d-%d-%d", id, counter, os.time()),
  }, body)
end
