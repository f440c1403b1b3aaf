-- Neovim's built-in LSP client driving `boxwright lsp --stdio` (test/lsp/neovim.test.ts).
-- Run as: nvim --headless --clean -c 'luafile test/lsp/nvim-client.lua'
-- with BOXWRIGHT_LSP_CMD (the server's command line, JSON), BOXWRIGHT_LSP_FILE (the config
-- to open) and BOXWRIGHT_LSP_OUT (where the results go, JSON). Everything the client
-- receives is written as it came, and what Neovim made of it (its diagnostics in byte
-- columns, the buffer after a quick fix) beside it; the test compares them all.
local out = {}
local function finish()
  local f = assert(io.open(os.getenv('BOXWRIGHT_LSP_OUT'), 'w'))
  f:write(vim.fn.json_encode(out))
  f:close()
  vim.cmd('qa!')
end

local ok, err = pcall(function()
  local file = os.getenv('BOXWRIGHT_LSP_FILE')
  local published = {}
  local exited = nil
  local client_id = vim.lsp.start_client({
    name = 'boxwright',
    cmd = vim.fn.json_decode(os.getenv('BOXWRIGHT_LSP_CMD')),
    root_dir = vim.fn.fnamemodify(file, ':h'),
    handlers = {
      ['textDocument/publishDiagnostics'] = function(e, result, ctx, config)
        table.insert(published, result)
        vim.lsp.diagnostic.on_publish_diagnostics(e, result, ctx, config)
      end,
    },
    on_exit = function(code, signal)
      exited = { code = code, signal = signal }
    end,
  })
  assert(client_id, 'the client did not start')
  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  local buf = vim.api.nvim_get_current_buf()
  vim.lsp.buf_attach_client(buf, client_id)
  assert(vim.wait(60000, function() return #published >= 1 end, 20), 'no diagnostics')
  local client = vim.lsp.get_client_by_id(client_id)
  out.initialized = client.initialized
  out.diagnostics = published[1].diagnostics
  -- What Neovim shows: 0-based lines, byte columns (it converted the server's UTF-16 characters).
  out.shown = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(out.shown, { lnum = d.lnum, col = d.col, end_lnum = d.end_lnum, end_col = d.end_col, code = d.code })
  end
  table.sort(out.shown, function(a, b)
    if a.lnum ~= b.lnum then return a.lnum < b.lnum end
    if a.col ~= b.col then return a.col < b.col end
    return tostring(a.code) < tostring(b.code)
  end)

  local uri = vim.uri_from_bufnr(buf)
  local function request(method, params)
    local r = client.request_sync(method, params, 60000, buf)
    assert(r and not r.err, method .. ': ' .. vim.inspect(r))
    return r.result
  end
  out.hover_key = request('textDocument/hover', { textDocument = { uri = uri }, position = { line = 1, character = 1 } })
  out.hover_rule = request('textDocument/hover', { textDocument = { uri = uri }, position = { line = 1, character = 20 } })
  local items = request('textDocument/completion', { textDocument = { uri = uri }, position = { line = 3, character = 0 } })
  out.completion = {}
  for _, item in ipairs(items.items or items) do table.insert(out.completion, item.label) end

  -- The quick fixes of lines 2 and 3 (0-based 1 to 2); the one for `/usr//lib` applied as Neovim applies a workspace edit.
  local actions = request('textDocument/codeAction', {
    textDocument = { uri = uri },
    range = { start = { line = 1, character = 0 }, ['end'] = { line = 2, character = 30 } },
    context = { diagnostics = out.diagnostics },
  })
  out.actions = {}
  local chosen
  for _, a in ipairs(actions) do
    table.insert(out.actions, { title = a.title, isPreferred = a.isPreferred })
    if a.title == 'Name the path as /usr/lib' then chosen = a end
  end
  assert(chosen, 'no quick fix for /usr//lib')
  vim.lsp.util.apply_workspace_edit(chosen.edit, client.offset_encoding)
  out.fixed = table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, true), '\n') .. '\n'
  -- The change reaches the server (didChange), which checks the fixed text again.
  assert(vim.wait(60000, function() return #published >= 2 end, 20), 'no diagnostics after the fix')
  out.after = published[#published].diagnostics

  vim.lsp.stop_client(client_id)
  assert(vim.wait(60000, function() return exited ~= nil end, 20), 'the server did not exit')
  out.exit = exited
end)
if not ok then out.error = tostring(err) end
finish()
