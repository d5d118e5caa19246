package daemon_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ccd-dev/ccd/daemon/hooks"
	"github.com/ccd-dev/ccd/internal/testrepo"
)

// The real CLIs of the other coding agents, headless, against a scripted
// model: Codex, Gemini CLI, GitHub Copilot CLI and Factory Droid.
//
// scripts/install-agents.sh puts the pinned versions into .tools/agents
// (`just test` runs it first). Each agent gets the project of
// testdata/claude/records.txtar set up as a user does (git init, `ccd
// setup AGENT`, `ccd init`) and plays the same session: the canvas MCP
// tool (impact of process_data), a read of process_data, a search for
// it, an edit that changes its signature, then a final answer. The test
// asserts on what the agent sent to the model after each step: the
// orientation card at the start, the canvas answer, the read, search and
// edit cards, and the stop reminder where the agent continues after a
// Stop hook (all four do), each exactly once, logged by ccd under the
// agent's name.
//
// What each CLI needs to run offline (versions in agentCases):
//   - Codex: a custom model provider (wire_api responses) in
//     $CODEX_HOME/config.toml, the project trusted there; hooks run only
//     once trusted (ccd setup codex writes the trust). The model reads and
//     searches with exec_command and edits with the custom apply_patch
//     tool; MCP tools are deferred behind tool_search.
//   - Gemini CLI: GOOGLE_GEMINI_BASE_URL with the gemini-api-key auth type
//     in the user settings, a trusted workspace, --yolo.
//   - Copilot CLI: COPILOT_PROVIDER_BASE_URL (Chat Completions),
//     COPILOT_OFFLINE, --allow-all --trust-folder.
//   - Droid: a custom model (provider anthropic, the Messages API) in the
//     user settings, FACTORY_AIRGAP_ENABLED, blockOnMcpLoad.

// agentCase is one agent CLI and how to drive it.
type agentCase struct {
	name, version string
	bin           string // under .tools/agents/NAME
	proto         string // gemini, chat, responses, messages
	// prepare writes the agent's user configuration into home: its model
	// pointing at api, telemetry and updates off.
	prepare func(t *testing.T, home, root, api string)
	env     func(home, api string) []string
	args    func(root, prompt string) []string
	// steps are the session's tool calls in the agent's own terms: canvas
	// impact of process_data, a read of it, a search for it, the edit.
	steps func(root string) []agentStep
}

const (
	oldSig = "def process_data(records, strict=False):"
	newSig = "def process_data(records, strict, limit):"
)

func agentCases() []agentCase {
	records := func(root string) string { return filepath.Join(root, "app", "records.py") }
	return []agentCase{
		{
			name: "codex", version: "0.169.0", bin: "node_modules/.bin/codex", proto: "responses",
			prepare: func(t *testing.T, home, root, api string) {
				writeFile(t, filepath.Join(home, ".codex", "config.toml"), []byte(fmt.Sprintf(`model = "gpt-5.5"
model_provider = "scripted"
approval_policy = "never"
sandbox_mode = "danger-full-access"
check_for_update_on_startup = false

[analytics]
enabled = false

[feedback]
enabled = false

[history]
persistence = "none"

[otel]
exporter = "none"

[model_providers.scripted]
name = "scripted"
base_url = "%s/v1"
wire_api = "responses"
env_key = "SCRIPTED_API_KEY"
request_max_retries = 0
stream_max_retries = 0

[projects.%q]
trust_level = "trusted"
`, api, root)))
			},
			env: func(home, api string) []string {
				return []string{"CODEX_HOME=" + filepath.Join(home, ".codex"), "SCRIPTED_API_KEY=offline"}
			},
			args: func(root, prompt string) []string {
				return []string{"exec", "--json", "--skip-git-repo-check", "-C", root, prompt}
			},
			steps: func(root string) []agentStep {
				return []agentStep{
					{Tool: "canvas", Namespace: "mcp__ccd", Args: map[string]any{"action": "impact", "symbol": "process_data"}},
					{Tool: "exec_command", Args: map[string]any{"cmd": "sed -n '9,14p' app/records.py", "yield_time_ms": 2000}},
					{Tool: "exec_command", Args: map[string]any{"cmd": "grep -rn process_data .", "yield_time_ms": 2000}},
					{Tool: "apply_patch", Custom: "*** Begin Patch\n*** Update File: app/records.py\n@@\n \n \n-" + oldSig + "\n+" + newSig + "\n     out = [normalize(r) for r in records]\n*** End Patch\n"},
				}
			},
		},
		{
			name: "gemini", version: "0.61.0", bin: "node_modules/.bin/gemini", proto: "gemini",
			prepare: func(t *testing.T, home, root, api string) {
				writeFile(t, filepath.Join(home, ".gemini", "settings.json"), []byte(`{
  "general": {"enableAutoUpdate": false, "enableAutoUpdateNotification": false},
  "privacy": {"usageStatisticsEnabled": false},
  "telemetry": {"enabled": false},
  "security": {"auth": {"selectedType": "gemini-api-key"}},
  "ui": {"showHomeDirectoryWarning": false}
}
`))
			},
			env: func(home, api string) []string {
				return []string{"GOOGLE_GEMINI_BASE_URL=" + api, "GEMINI_API_KEY=offline", "GEMINI_CLI_TRUST_WORKSPACE=true",
					"GEMINI_TELEMETRY_ENABLED=false", "NO_BROWSER=true", "TERM=dumb"}
			},
			args: func(root, prompt string) []string {
				return []string{"-p", prompt, "--yolo", "-o", "json", "-m", "gemini-2.5-flash"}
			},
			steps: func(root string) []agentStep {
				return []agentStep{
					{Tool: "mcp_ccd_canvas", Args: map[string]any{"action": "impact", "symbol": "process_data"}},
					{Tool: "read_file", Args: map[string]any{"file_path": records(root), "start_line": 9, "end_line": 14}},
					{Tool: "grep_search", Args: map[string]any{"pattern": "process_data", "dir_path": root}},
					{Tool: "replace", Args: map[string]any{"file_path": records(root), "old_string": oldSig, "new_string": newSig, "instruction": "add a limit"}},
				}
			},
		},
		{
			name: "copilot", version: "1.0.102", bin: "node_modules/.bin/copilot", proto: "chat",
			prepare: func(t *testing.T, home, root, api string) {},
			env: func(home, api string) []string {
				return []string{"COPILOT_OFFLINE=true", "COPILOT_PROVIDER_BASE_URL=" + api + "/v1", "COPILOT_PROVIDER_API_KEY=offline",
					"COPILOT_MODEL=gpt-4.1", "COPILOT_AUTO_UPDATE=false"}
			},
			args: func(root, prompt string) []string {
				return []string{"-p", prompt, "--allow-all", "--trust-folder", "--no-ask-user", "--disable-client-telemetry", "--no-auto-update"}
			},
			steps: func(root string) []agentStep {
				return []agentStep{
					{Tool: "ccd-canvas", Args: map[string]any{"action": "impact", "symbol": "process_data"}},
					{Tool: "view", Args: map[string]any{"path": records(root), "view_range": []int{9, 14}}},
					{Tool: "grep", Args: map[string]any{"pattern": "process_data", "paths": root, "output_mode": "content"}},
					{Tool: "edit", Args: map[string]any{"path": records(root), "old_str": oldSig, "new_str": newSig}},
				}
			},
		},
		{
			name: "droid", version: "0.225.2", bin: "node_modules/@factory/cli-linux-x64/bin/droid", proto: "messages",
			prepare: func(t *testing.T, home, root, api string) {
				writeFile(t, filepath.Join(home, ".factory", "settings.json"), []byte(fmt.Sprintf(`{
  "customModels": [{"model": "scripted", "id": "custom:scripted", "baseUrl": %q, "apiKey": "offline", "provider": "anthropic"}],
  "blockOnMcpLoad": true
}
`, api)))
			},
			env: func(home, api string) []string {
				return []string{"FACTORY_AIRGAP_ENABLED=1", "FACTORY_DROID_AUTO_UPDATE_ENABLED=0", "FACTORY_DISABLE_KEYRING=1", "OTEL_SDK_DISABLED=true"}
			},
			args: func(root, prompt string) []string {
				return []string{"exec", "-m", "custom:scripted", "--auto", "high", "-o", "json", prompt}
			},
			steps: func(root string) []agentStep {
				return []agentStep{
					{Tool: "ccd___canvas", Args: map[string]any{"action": "impact", "symbol": "process_data"}},
					{Tool: "Read", Args: map[string]any{"file_path": records(root), "offset": 9, "limit": 6}},
					{Tool: "Grep", Args: map[string]any{"pattern": "process_data", "path": root}},
					{Tool: "Edit", Args: map[string]any{"file_path": records(root), "old_str": oldSig, "new_str": newSig}},
				}
			},
		},
	}
}

// agentBin locates an agent's pinned CLI, or skips (fails when
// CCD_REQUIRE_AGENTS=1 or CCD_REQUIRE_LSP=1, as CI sets).
func agentBin(t *testing.T, c agentCase) string {
	t.Helper()
	wd, _ := os.Getwd()
	tools := filepath.Join(filepath.Dir(wd), ".tools")
	if d := os.Getenv("CCD_TOOLS_DIR"); d != "" {
		tools = d
	}
	bin := filepath.Join(tools, "agents", c.name, c.bin)
	if _, err := os.Stat(bin); err != nil {
		msg := fmt.Sprintf("%s %s is not installed at %s: run scripts/install-agents.sh (just test does)", c.name, c.version, bin)
		if os.Getenv("CCD_REQUIRE_AGENTS") == "1" || os.Getenv("CCD_REQUIRE_LSP") == "1" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return bin
}

// agentRun is one headless session: what the model received, per turn,
// and what ccd decided.
type agentRun struct {
	c         agentCase
	reqs      []*agentReq // the agent's turns, in order
	steps     int
	decisions []hooks.Decision
	took      time.Duration
}

func TestAgents(t *testing.T) {
	for _, c := range agentCases() {
		t.Run(c.name, func(t *testing.T) {
			bin := agentBin(t, c)
			build(t) // bins.dir goes on PATH, as the shims of an installed ccd are
			home := tempDir(t)
			e := newEnv(t,
				"PATH="+bins.dir+string(os.PathListSeparator)+os.Getenv("PATH"),
				"HOME="+home,
				"XDG_STATE_HOME="+filepath.Join(home, "state"),
				"XDG_CACHE_HOME="+filepath.Join(home, "cache"),
				"XDG_CONFIG_HOME="+filepath.Join(home, "xdgconfig"),
				"CODEX_HOME="+filepath.Join(home, ".codex"),
			)
			root := testrepo.Write(t, testrepo.Read(t, filepath.Join("..", "testdata", "claude", "records.txtar")), tempDir(t))
			git(t, root, "init", "-q", "-b", "main")
			git(t, root, "add", ".")
			git(t, root, "commit", "-q", "-m", "records")
			r := runAgent(t, e, bin, c, home, root)
			r.check(t)
		})
	}
}

func runAgent(t *testing.T, e *env, bin string, c agentCase, home, root string) *agentRun {
	t.Helper()
	steps := c.steps(root)
	script := append(append([]agentStep{}, steps...), agentStep{Text: "Done."})
	var api interface{ URL() string }
	var aapi *agentAPI
	var mapi *fakeAPI
	if c.proto == "messages" {
		var turns []apiTurn
		for _, s := range script {
			turns = append(turns, apiTurn{Tool: s.Tool, Input: s.Args, Text: s.Text})
		}
		mapi = newFakeAPI(t, turns...)
		api = mapi
	} else {
		aapi = newAgentAPI(t, c.proto, script...)
		api = aapi
	}
	c.prepare(t, home, root, api.URL())
	if r := e.run(bins.ccd, nil, "setup", c.name, "--dir", root); r.code != 0 {
		t.Fatalf("ccd setup %s: %+v", c.name, r)
	} else {
		t.Logf("ccd setup %s:\n%s", c.name, r.stdout)
	}
	if r := e.run(bins.ccd, nil, "init", root); r.code != 0 || !strings.Contains(r.stdout, "ready") {
		t.Fatalf("ccd init: %+v", r)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, c.args(root, "process_data needs a limit.")...)
	cmd.Dir = root
	cmd.Env = agentEnv(e, c.env(home, api.URL()))
	cmd.Stdin = nil
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	t0 := time.Now()
	err := cmd.Run()
	run := &agentRun{c: c, steps: len(steps), took: time.Since(t0)}
	if err != nil {
		t.Fatalf("%s: %v\nstdout: %s\nstderr: %s", c.name, err, stdout.Bytes(), stderr.Bytes())
	}
	t.Logf("%s ran the session in %s", c.name, run.took.Round(time.Millisecond))
	if aapi != nil {
		run.reqs = aapi.agentRequests()
	} else {
		for _, q := range mapi.requests(reqAgent) {
			turn := q.Turn
			if turn < 0 {
				turn = len(script)
			}
			var body map[string]any
			json.Unmarshal(q.Raw, &body)
			run.reqs = append(run.reqs, &agentReq{Path: q.Path, Agent: true, Turn: turn, Raw: q.Raw, Body: body})
		}
	}
	if len(run.reqs) == 0 {
		t.Fatalf("%s sent the model no request with tools\nstdout: %s\nstderr: %s", c.name, stdout.Bytes(), stderr.Bytes())
	}
	run.decisions = decisionsOf(t, e.home)
	return run
}

// agentEnv is the environment of an agent run: this process's, without
// anything that points an agent elsewhere (keys, configs, proxies), plus
// the daemon world, the throwaway home and the agent's own variables.
func agentEnv(e *env, own []string) []string {
	out := append(hermeticEnv(), e.vars...)
	out = append(out, own...)
	return append(out, "NO_PROXY=127.0.0.1,localhost")
}

// hermeticEnv is this process's environment without what would point an
// agent CLI elsewhere: API keys and base URLs, the agents' own configs,
// an enclosing agent session, telemetry, proxies, ccd's own variables.
func hermeticEnv() []string {
	var out []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		u := strings.ToUpper(k)
		skip := strings.HasSuffix(u, "_PROXY")
		for _, p := range []string{"ANTHROPIC_", "CLAUDE", "CCD_", "AWS_", "VERTEX_", "DISABLE_", "MCP_", "OTEL_",
			"OPENAI_", "CODEX_", "GEMINI_", "GOOGLE_", "COPILOT_", "GH_", "GITHUB_", "FACTORY_"} {
			skip = skip || strings.HasPrefix(u, p)
		}
		if !skip {
			out = append(out, kv)
		}
	}
	return out
}

// decisionsOf reads every decision of ccd's hook log.
func decisionsOf(t *testing.T, ccdHome string) []hooks.Decision {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(ccdHome, "hooks.jsonl"))
	if err != nil {
		t.Fatalf("ccd's hook log: %v", err)
	}
	var out []hooks.Decision
	for _, line := range bytes.Split(b, []byte("\n")) {
		var d hooks.Decision
		if json.Unmarshal(line, &d) == nil && d.Event != "" {
			out = append(out, d)
		}
	}
	return out
}

// after is the first request that carries the result of scripted step n.
func (r *agentRun) after(t *testing.T, n int) *agentReq {
	t.Helper()
	for _, q := range r.reqs {
		if q.Turn > n {
			return q
		}
	}
	t.Fatalf("%s: no request after scripted step %d (requests at turns %v)", r.c.name, n, r.turns())
	return nil
}

func (r *agentRun) turns() []int {
	var out []int
	for _, q := range r.reqs {
		out = append(out, q.Turn)
	}
	return out
}

// card finds the card with the tag in what the model received in q, and
// checks it: there once, within 900 characters, holding each of want,
// and logged by ccd as a card of its kind for this agent.
func (r *agentRun) card(t *testing.T, what string, q *agentReq, tag, kind string, want ...string) {
	t.Helper()
	var cards []string
	for _, s := range q.find(tag) {
		// A card starts at its tag; agents wrap it in their own text.
		c := s[strings.Index(s, tag):]
		for _, end := range []string{"</hook_context>", "&lt;/hook_context&gt;", "</hook_prompt>", "\n\n"} {
			if i := strings.Index(c, end); i >= 0 {
				c = c[:i]
			}
		}
		cards = append(cards, c)
	}
	if len(cards) == 0 {
		t.Errorf("%s: the model did not get the %s card (%s) in the next request", what, kind, tag)
		return
	}
	c := cards[len(cards)-1]
	t.Logf("%s: the model received (%d characters):\n%s", what, len(c), c)
	if n := len(c); n > 900 {
		t.Errorf("%s: card of %d characters, over 900", what, n)
	}
	for _, w := range want {
		if !strings.Contains(c, w) {
			t.Errorf("%s: card lacks %q:\n%s", what, w, c)
		}
	}
	for _, d := range r.decisions {
		if d.Action == kind && d.Client == r.c.name {
			return
		}
	}
	t.Errorf("%s: ccd's log has no %s card for client %s: %+v", what, kind, r.c.name, r.decisions)
}

func (r *agentRun) check(t *testing.T) {
	t.Helper()
	// The orientation card comes before the first turn.
	r.card(t, "session start", r.reqs[0], "[ccd] Workspace", "orientation", "4 files (python 4)")
	// 0: the canvas MCP tool answered through the agent's MCP client.
	if q := r.after(t, 0); len(q.find("Callers (4)")) == 0 {
		t.Errorf("canvas impact: the model did not get the tool's answer (Callers (4)); the request after it:\n%s", q.Raw)
	}
	r.card(t, "read of process_data", r.after(t, 1), "[ccd impact] process_data", "impact",
		"4 callers", "app/api.py", "Tests:")
	r.card(t, "search for process_data", r.after(t, 2), "[ccd search] process_data", "search",
		"app/records.py:9")
	r.card(t, "edit of process_data's signature", r.after(t, 3), "[ccd edit] app/records.py", "edit",
		"Signature of process_data changed", "Will break", "app/api.py")
	// After the final answer, Stop: the reminder of the callers never
	// opened comes back as the agent's next turn.
	var last *agentReq
	for _, q := range r.reqs {
		if q.Turn >= r.steps && len(q.find("[ccd stop-check]")) > 0 {
			last = q
		}
	}
	if last == nil {
		t.Errorf("the stop reminder never reached the model (requests at turns %v)", r.turns())
	} else {
		r.card(t, "stop", last, "[ccd stop-check]", "stop", "process_data", "app/api.py")
	}
	// Every card came once: no card twice in one request.
	for _, q := range r.reqs {
		seen := map[string]int{}
		for _, s := range q.texts() {
			for _, tag := range []string{"[ccd impact]", "[ccd search]", "[ccd edit]", "[ccd stop-check]"} {
				seen[tag] += strings.Count(s, tag)
			}
		}
		for tag, n := range seen {
			if n > 1 && r.c.name != "gemini" {
				t.Errorf("a request holds %d %s cards", n, tag)
			}
		}
	}
}
