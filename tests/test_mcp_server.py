"""`tota mcp` through the MCP SDK's own client: a spawned server over stdio and over streamable
HTTP, and the same server in-process for the rest."""

from __future__ import annotations

import asyncio
import hashlib
import http.client
import json
import os
import re
import select
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, MCPError, StdioServerParameters

from tota_vault import Vault, VaultError
from tota_vault.cli import MCP_SDK_MISSING
from tota_vault.mcp_server import DEFAULT_PORT, INSTRUCTIONS, create_server, with_content_ids

ROOT = Path(__file__).resolve().parent.parent
TOOLS = {
    "recall", "remember", "learn", "search", "forget", "confirm", "pause", "resume", "overview",
}  # fmt: skip
READ_ONLY = {"recall", "search", "overview"}
CHAT = [
    {"role": "user", "content": "My name is Dana and I live in Porto.", "id": "m1"},
    {"role": "assistant", "content": "Nice to meet you, Dana.", "id": "m2"},
    {"role": "user", "content": "I prefer dark mode in every editor.", "id": "m3"},
]
SECRET = "sk-proj-4f9KxQ2mZ8vB7nT1wR6yL3pH5jD0cA9eU2sG"


def arun(main: Awaitable[Any]) -> Any:
    """`asyncio.run`, then wait for the SDK's helper threads to end.

    The SDK reads a template resource on an AnyIO worker thread; AnyIO tells those threads to
    stop when the event loop's main task ends, but does not wait for them.
    """
    try:
        return asyncio.run(main)  # type: ignore[arg-type]
    finally:
        deadline = time.monotonic() + 10
        for thread in threading.enumerate():
            if thread.name == "AnyIO worker thread":
                thread.join(max(0.0, deadline - time.monotonic()))


def run(root: Path, scenario: Callable[[Client], Awaitable[Any]]) -> Any:
    """Run `scenario` against an in-process server over the vault at `root`."""

    async def main() -> Any:
        async with Client(create_server(root)) as client:
            return await scenario(client)

    return arun(main())


def text_of(result: Any) -> str:
    return "\n".join(block.text for block in result.content)


def server_env(tmp_path: Path, vault_dir: Path) -> dict[str, str]:
    # The SDK's stdio client passes only a few safe variables on: name the vault explicitly.
    return {"TOTA_HOME": str(tmp_path / "tota-home"), "TOTA_VAULT": str(vault_dir)}


# --- a real `tota mcp` process over stdio ------------------------------------------------------


def test_spawned_server_over_stdio(tmp_path: Path, vault_dir: Path):
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "tota_vault", "mcp"],
        env=server_env(tmp_path, vault_dir),
    )  # fmt: skip

    async def main() -> None:
        async with Client(params) as client:
            assert client.instructions == INSTRUCTIONS
            names = {tool.name for tool in (await client.list_tools()).tools}
            assert names == TOOLS

            stored = await client.call_tool(
                "remember", {"type": "preference", "text": "Prefers green tea in the morning"}
            )
            assert not stored.is_error, text_of(stored)
            tea = stored.structured_content
            assert (vault_dir / tea["path"]).is_file()

            learned = await client.call_tool("learn", {"messages": CHAT, "conversation_id": "c1"})
            assert not learned.is_error and learned.structured_content["counts"]["create"] >= 2

            recalled = await client.call_tool("recall", {"message": "Where do I live?"})
            memories = recalled.structured_content["memories"]
            assert memories[0]["text"] == "Lives in Porto."
            assert [m["rank"] for m in memories] == list(range(1, len(memories) + 1))
            assert memories[0]["sources"] == ["c1#m1"] and memories[0]["evidence"] == "direct"
            assert "Lives in Porto." in text_of(recalled)

            forgot = await client.call_tool("forget", {"id": tea["id"]})
            assert not forgot.is_error and not (vault_dir / tea["path"]).exists()

            bad = await client.call_tool("remember", {"type": "mood", "text": "Happy"})
            assert bad.is_error and "type" in text_of(bad)
            good = await client.call_tool("search", {"query": "dark mode"})
            assert not good.is_error and good.structured_content["hits"]

    arun(main())
    with Vault.open(vault_dir) as vault:  # what the server wrote is in the vault for the CLI too
        assert vault.recall("Porto", 3)[0].text == "Lives in Porto."


def _read_line(stream: Any, deadline: float) -> bytes:
    """One line from a pipe, or fail at the deadline (never hang the suite)."""
    while time.monotonic() < deadline:
        ready, _, _ = select.select([stream], [], [], 0.1)
        if ready:
            return stream.readline()
    raise AssertionError("no reply from tota mcp in time")


def test_raw_stdio_survives_garbage_and_prints_only_protocol(tmp_path: Path, vault_dir: Path):
    """A host of the 2025-06-18 handshake era, writing JSON-RPC lines by hand: a line that is
    not JSON does not end the server, every stdout line is a JSON-RPC message, and EOF on stdin
    ends the server cleanly."""
    env = {**os.environ, **server_env(tmp_path, vault_dir)}
    initialize = {
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "raw", "version": "0"},
        },
    }  # fmt: skip
    initialized = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    call = {
        "jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "remember", "arguments": {"type": "habit", "text": "Naps at noon"}},
    }  # fmt: skip
    process = subprocess.Popen(
        [sys.executable, "-m", "tota_vault", "mcp"], env=env,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    deadline = time.monotonic() + 60
    try:
        assert process.stdin and process.stdout
        replies = []
        for message in ("this is not JSON", initialize, initialized, call):
            line = message if isinstance(message, str) else json.dumps(message)
            process.stdin.write(line.encode() + b"\n")
            process.stdin.flush()
            if isinstance(message, dict) and "id" in message:
                replies.append(json.loads(_read_line(process.stdout, deadline)))
        process.stdin.close()
        assert process.wait(timeout=30) == 0
        rest = process.stdout.read()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        for stream in (process.stdin, process.stdout):
            if stream and not stream.closed:
                stream.close()
    assert [r["id"] for r in replies] == [1, 2]
    assert replies[0]["result"]["protocolVersion"] == "2025-06-18"
    assert replies[0]["result"]["serverInfo"]["name"] == "tota"
    assert replies[1]["result"]["structuredContent"]["text"] == "Naps at noon"
    assert all(json.loads(line)["jsonrpc"] == "2.0" for line in rest.splitlines())


# --- streamable HTTP ---------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_for_port(port: int, process: subprocess.Popen[bytes], log: Path, deadline: float) -> None:
    while time.monotonic() < deadline:
        assert process.poll() is None, log.read_text(errors="replace")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise AssertionError(f"tota mcp --http did not listen on {port} in time")


def _listening_addresses(port: int) -> set[str]:
    """The local addresses listening on `port`, from /proc/net/tcp (state 0A is LISTEN)."""
    found = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        local, state = line.split()[1], line.split()[3]
        address, port_hex = local.split(":")
        if state == "0A" and int(port_hex, 16) == port:
            found.add(socket.inet_ntoa(bytes.fromhex(address)[::-1]))
    return found


def _post_initialize(port: int, host_header: str) -> int:
    body = json.dumps(
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                    "clientInfo": {"name": "raw", "version": "0"}}}
    )  # fmt: skip
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request(
            "POST", "/mcp", body,
            {"Host": host_header, "Content-Type": "application/json",
             "Accept": "application/json, text/event-stream"},
        )  # fmt: skip
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


def test_http_mode_serves_on_localhost_only(tmp_path: Path, vault_dir: Path):
    port = _free_port()
    env = {**os.environ, **server_env(tmp_path, vault_dir)}
    with (tmp_path / "server.log").open("wb") as log, (tmp_path / "out").open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "tota_vault", "mcp", "--http", "--port", str(port)],
            env=env, stdout=out, stderr=log,
        )  # fmt: skip
    try:
        _wait_for_port(port, process, tmp_path / "server.log", time.monotonic() + 60)
        if Path("/proc/net/tcp").exists():
            assert _listening_addresses(port) == {"127.0.0.1"}
        # A page on another site cannot reach it through DNS rebinding: its Host is refused.
        assert _post_initialize(port, f"localhost:{port}") == 200
        assert _post_initialize(port, f"attacker.example:{port}") == 421

        async def main() -> None:
            async with Client(f"http://127.0.0.1:{port}/mcp") as client:
                assert {t.name for t in (await client.list_tools()).tools} == TOOLS
                await client.call_tool("remember", {"type": "habit", "text": "Runs at dawn"})
            async with Client(f"http://127.0.0.1:{port}/mcp") as client:  # a second session
                found = await client.call_tool("recall", {"message": "When do I run?"})
                assert found.structured_content["memories"][0]["text"] == "Runs at dawn"

        arun(main())
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    assert (tmp_path / "out").read_bytes() == b""  # logs, uvicorn's too, go to stderr
    assert b"POST /mcp" in (tmp_path / "server.log").read_bytes()


def test_http_mode_on_a_port_in_use_says_so_in_one_line_and_exits_1(
    tmp_path: Path, vault_dir: Path
):
    env = {**os.environ, **server_env(tmp_path, vault_dir)}
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "tota_vault", "mcp", "--http", "--port", str(port)],
            capture_output=True, text=True, env=env, timeout=60,
        )  # fmt: skip
    assert done.returncode == 1, done.stderr
    assert done.stdout == ""
    assert done.stderr.splitlines() == [
        f"tota: error: 127.0.0.1:{port} is in use (another `tota mcp --http`, or another "
        "program); stop it or choose another port with --port"
    ]


# --- the command without the SDK, and what it costs the others ----------------------------------

BLOCK_MCP = """
import sys
class BlockMCP:
    def find_spec(self, name, path=None, target=None):
        if name == "mcp" or name.startswith("mcp."):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None
sys.meta_path.insert(0, BlockMCP())
sys.argv = ["tota", *sys.argv[1:]]
from tota_vault.cli import main
main()
"""


def test_without_the_sdk_tota_mcp_says_how_to_install_it(tmp_path: Path, vault_dir: Path):
    env = {**os.environ, **server_env(tmp_path, vault_dir)}
    done = subprocess.run(
        [sys.executable, "-c", BLOCK_MCP, "mcp"], capture_output=True, text=True, env=env,
        timeout=60,
    )  # fmt: skip
    assert done.returncode == 1
    assert done.stderr == MCP_SDK_MISSING + "\n" and done.stdout == ""
    other = subprocess.run(
        [sys.executable, "-c", BLOCK_MCP, "overview"], capture_output=True, text=True, env=env,
        timeout=60,
    )  # fmt: skip
    assert other.returncode == 0 and "memories in" in other.stdout


def test_no_other_command_imports_the_sdk(tmp_path: Path, vault_dir: Path):
    probe = (
        "import sys\n"
        "import tota_vault.cli\n"
        "sys.argv = ['tota', 'overview']\n"
        "try:\n    tota_vault.cli.main()\nexcept SystemExit:\n    pass\n"
        "sys.stderr.write('loaded: ' + ' '.join(sorted(m for m in sys.modules "
        "if m == 'mcp' or m.startswith(('mcp.', 'mcp_types', 'tota_vault.mcp')))))\n"
    )
    env = {**os.environ, **server_env(tmp_path, vault_dir)}
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=env, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip() == "loaded:"


def test_the_cli_help_names_the_servers_default_port():
    from typer.testing import CliRunner

    from tota_vault.cli import app

    result = CliRunner().invoke(app, ["mcp", "-h"])
    assert f"default {DEFAULT_PORT}" in result.output


# --- the vault's lifetime ----------------------------------------------------------------------


def _vault_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("tota-vault")]


def test_clients_of_one_server_share_the_vault_until_the_last_leaves(vault_dir: Path):
    server = create_server(vault_dir)

    async def main() -> None:
        async with Client(server) as first:
            async with Client(server) as second:
                await first.call_tool("remember", {"type": "habit", "text": "Walks the dog"})
                found = await second.call_tool("recall", {"message": "dog walks"})
                assert found.structured_content["memories"][0]["text"] == "Walks the dog"
                assert len(_vault_threads()) == 1
            still = await first.call_tool("search", {"query": "dog"})
            assert not still.is_error and still.structured_content["hits"]

    arun(main())
    assert _vault_threads() == []


def test_a_vault_that_cannot_open_stops_the_server_and_no_thread_is_left(tmp_path: Path):
    not_a_folder = tmp_path / "vault"
    not_a_folder.write_text("a file")

    async def main() -> None:
        async with Client(create_server(not_a_folder)):
            pass

    with pytest.raises(VaultError, match="is a file, not a vault folder"):
        arun(main())
    assert _vault_threads() == []


def test_tota_mcp_with_a_bad_vault_is_one_line(tmp_path: Path):
    from typer.testing import CliRunner

    from tota_vault.cli import app

    not_a_folder = tmp_path / "vault"
    not_a_folder.write_text("a file")
    result = CliRunner().invoke(app, ["--vault", str(not_a_folder), "mcp"])
    assert result.exit_code == 1
    assert result.output == f"tota: error: {not_a_folder}: is a file, not a vault folder\n"


# --- in-process: the schema hosts show ---------------------------------------------------------


def test_tools_are_named_described_and_annotated(vault_dir: Path):
    tools = {t.name: t for t in run(vault_dir, lambda c: c.list_tools()).tools}
    assert set(tools) == TOOLS
    for name, tool in tools.items():
        assert tool.description and len(tool.description) > 20, name
        for param, schema in tool.input_schema.get("properties", {}).items():
            assert schema.get("description"), f"{name}.{param} has no description"
        assert tool.output_schema, name
        hints = tool.annotations
        assert hints.read_only_hint is (name in READ_ONLY), name
        if name not in READ_ONLY:
            assert hints.destructive_hint is (name == "forget"), name
    remember = tools["remember"].input_schema
    assert "preference" in remember["properties"]["type"]["enum"]
    assert remember["properties"]["evidence"]["enum"] == ["direct", "inferred"]
    assert set(remember["required"]) == {"type", "text"}
    limit = tools["recall"].input_schema["properties"]["limit"]
    assert (limit["minimum"], limit["maximum"], limit["default"]) == (1, 50, 10)
    message = tools["learn"].input_schema["$defs"]["ChatMessage"]
    assert message["properties"]["role"]["enum"] == ["user", "assistant", "system", "tool"]
    assert set(message["required"]) == {"role", "content"}


def test_the_resources_and_the_prompt_are_listed(vault_dir: Path):
    async def scenario(client: Client) -> tuple[Any, Any, Any]:
        return (
            await client.list_resources(),
            await client.list_resource_templates(),
            await client.list_prompts(),
        )

    resources, templates, prompts = run(vault_dir, scenario)
    assert [str(r.uri) for r in resources.resources] == ["tota://profile"]
    assert [t.uri_template for t in templates.resource_templates] == ["tota://memory/{id}"]
    assert [p.name for p in prompts.prompts] == ["memory"]


# --- in-process: each tool ---------------------------------------------------------------------


def test_remember_direct_by_default_inferred_on_request(vault_dir: Path):
    async def scenario(client: Client) -> list[Any]:
        return [
            await client.call_tool(
                "remember", {"type": "preference", "text": "Likes rainy days", "tags": ["mood"]}
            ),
            await client.call_tool(
                "remember",
                {
                    "type": "goal",
                    "text": "Wants to learn Rust",
                    "evidence": "inferred",
                    "confidence": 0.7,
                    "importance": 0.4,
                },
            ),
            await client.call_tool(
                "remember", {"type": "habit", "text": "Cooks on Sundays", "evidence": "inferred"}
            ),
        ]

    direct, inferred, guessed = run(vault_dir, scenario)
    assert not direct.is_error and not inferred.is_error
    with Vault.open(vault_dir) as vault:
        note, text = vault.read(direct.structured_content["id"])
        assert note.fields["evidence"] == "direct" and float(note.fields["confidence"]) == 0.9
        assert "mood" in note.fields["tags"]
        note, _ = vault.read(inferred.structured_content["id"])
        assert note.fields["evidence"] == "inferred"
        assert (float(note.fields["confidence"]), float(note.fields["importance"])) == (0.7, 0.4)
        note, _ = vault.read(guessed.structured_content["id"])
        assert note.fields["evidence"] == "inferred" and float(note.fields["confidence"]) == 0.8
    assert direct.structured_content["path"] in text_of(direct)


def test_remember_of_the_same_words_again_confirms_the_memory(vault_dir: Path):
    # A user review: the same `remember` twice wrote "Is allergic to penicillin 2.md", and the
    # profile listed it twice; `tota add` refuses the repeat.
    arguments = {"type": "constraint", "text": "Is allergic to penicillin."}

    async def scenario(client: Client) -> tuple[Any, Any]:
        first = await client.call_tool("remember", arguments)
        again = await client.call_tool(
            "remember", arguments | {"text": "is allergic to  penicillin"}
        )
        return first, again

    first, again = run(vault_dir, scenario)
    assert not again.is_error and "Already remembered, confirmed" in text_of(again)
    assert again.structured_content["id"] == first.structured_content["id"]
    notes = sorted(p.name for p in (vault_dir / "constraint").glob("*.md"))
    assert notes == ["Is allergic to penicillin.md"]
    text = (vault_dir / "constraint" / notes[0]).read_text("utf-8")
    assert "confirmations: 2" in text
    # A code review: a repeat skipped the checks a new note gets, and said nothing of the tags.
    bad = run(vault_dir, lambda c: c.call_tool("remember", arguments | {"tags": ["bad tag"]}))
    assert bad.is_error and "holds a space" in text_of(bad)
    tagged = run(vault_dir, lambda c: c.call_tool("remember", arguments | {"tags": ["health"]}))
    assert "its tags and importance are as they were" in text_of(tagged)


@pytest.mark.parametrize(
    ("arguments", "says"),
    [
        ({"type": "mood", "text": "Happy"}, "type: Input should be"),
        ({"type": "goal", "text": "   "}, "a memory needs some text"),
        ({"type": "goal"}, "text: Field required"),
        ({"type": "goal", "text": "Run", "confidence": 3}, "confidence: Input should be less"),
        ({"type": "goal", "text": "Run", "evidence": "manual"}, "evidence: Input should be"),
        ({"type": "goal", "text": "Run", "tags": ["drinks", "bad tag"]}, "holds a space"),
        ({"type": "goal", "text": "Run", "tags": [""]}, "is empty"),
    ],
)
def test_a_bad_remember_is_a_tool_error_naming_the_problem(vault_dir: Path, arguments, says):
    async def scenario(client: Client) -> tuple[Any, Any]:
        bad = await client.call_tool("remember", arguments)
        good = await client.call_tool("remember", {"type": "goal", "text": "Run a marathon"})
        return bad, good

    bad, good = run(vault_dir, scenario)
    assert bad.is_error and says in text_of(bad) and "\n" not in text_of(bad)
    assert not good.is_error  # the server lives on


def test_argument_errors_never_echo_the_value(vault_dir: Path):
    """Pydantic's own message repeats the input; a pasted secret must not come back."""

    async def scenario(client: Client) -> list[Any]:
        return [
            await client.call_tool(
                "learn", {"messages": [{"content": f"my key is {SECRET}"}], "conversation_id": "c"}
            ),
            await client.call_tool("remember", {"type": SECRET, "text": "x"}),
            await client.call_tool("search", {"query": "x", "limit": SECRET}),
        ]

    for result in run(vault_dir, scenario):
        assert result.is_error and SECRET not in text_of(result)
        assert "invalid arguments" in text_of(result)


def test_library_errors_reach_the_model_with_secrets_redacted(vault_dir: Path):
    """A library message quotes the value it refuses; a key passed as an id is redacted."""

    async def scenario(client: Client) -> list[str]:
        out = []
        for tool in ("forget", "confirm"):
            result = await client.call_tool(tool, {"id": SECRET})
            assert result.is_error
            out.append(text_of(result))
        for uri in (f"tota://memory/{SECRET}", "tota://memory/sk-proj-4f9KxQ2mZ8vB7nT1wR6yL3pH5"):
            with pytest.raises(MCPError) as caught:
                await client.read_resource(uri)
            out.append(caught.value.error.message)
        return out

    for message in run(vault_dir, scenario):
        assert "sk-proj-4f9KxQ2mZ8vB7nT1wR6yL3pH5" not in message and "[REDACTED" in message


def test_remember_never_stores_or_echoes_a_secret(vault_dir: Path):
    text = f"My OpenAI API key is {SECRET}"
    result = run(vault_dir, lambda c: c.call_tool("remember", {"type": "preference", "text": text}))
    assert result.is_error and "tota never stores secrets" in text_of(result)
    assert SECRET not in text_of(result) and SECRET not in json.dumps(result.structured_content)
    notes = [p.read_text("utf-8") for p in vault_dir.rglob("*.md")]
    assert not any(SECRET in note for note in notes)


def test_learn_reports_and_is_idempotent(vault_dir: Path):
    async def scenario(client: Client) -> tuple[Any, Any]:
        first = await client.call_tool("learn", {"messages": CHAT, "conversation_id": "c1"})
        again = await client.call_tool("learn", {"messages": CHAT, "conversation_id": "c1"})
        return first, again

    first, again = run(vault_dir, scenario)
    report = first.structured_content
    assert report["counts"]["create"] == 3 and report["conversation_id"] == "c1"
    created = {o["text"] for o in report["outcomes"] if o["action"] == "create"}
    assert "Lives in Porto." in created
    assert all(o["reason"] and o["source"].startswith("c1#") for o in report["outcomes"])
    assert "3 created" in text_of(first)
    assert again.structured_content["counts"]["create"] == 0
    with Vault.open(vault_dir) as vault:
        assert vault.stats()["memories"] == 3


def test_learn_with_only_the_new_messages_each_time_learns_them_all(vault_dir: Path):
    # A user review: the instructions say to send "the new messages" after each reply; with
    # no ids each call began again at position 1, so every call after the first was "already
    # observed" and learned nothing.
    exchanges = [
        [{"role": "user", "content": "I live in Porto."}, {"role": "assistant", "content": "Ok."}],
        [{"role": "user", "content": "I'm a nurse."}, {"role": "assistant", "content": "Ok."}],
        [{"role": "user", "content": "I prefer tea over coffee."}],
    ]
    whole = [m for exchange in exchanges for m in exchange]

    async def scenario(client: Client) -> list[Any]:
        calls = [{"messages": e, "conversation_id": "c"} for e in [*exchanges, whole]]
        return [await client.call_tool("learn", arguments) for arguments in calls]

    *each, again = run(vault_dir, scenario)
    created = [[o["text"] for o in r.structured_content["outcomes"] if o["action"] == "create"]
               for r in each]  # fmt: skip
    assert created == [["Lives in Porto."], ["Is a nurse."], ["Prefers tea over coffee."]]
    # The whole conversation sent again afterwards is the same messages: nothing new.
    assert again.structured_content["counts"]["create"] == 0
    assert all(o["action"] == "skip" for o in again.structured_content["outcomes"])


@pytest.mark.parametrize(
    ("messages", "ids"),
    [
        ([{"role": "user", "content": "hi"}], ["m" + hashlib.sha256(b"user\x00\x00hi").hexdigest()[:12]]),
        ([{"role": "user", "content": "hi", "id": 7}], [7]),
        ([{"role": "user", "content": "ok"}, {"role": "user", "content": "ok"}],
         ["m" + hashlib.sha256(b"user\x00\x00ok").hexdigest()[:12],
          "m" + hashlib.sha256(b"user\x00\x00ok").hexdigest()[:12] + "-2"]),
        ([{"role": "user", "content": "ok"}, {"role": "assistant", "content": "ok"}],
         ["m" + hashlib.sha256(b"user\x00\x00ok").hexdigest()[:12],
          "m" + hashlib.sha256(b"assistant\x00\x00ok").hexdigest()[:12]]),
    ],
)  # fmt: skip
def test_content_ids(messages: list[dict[str, Any]], ids: list[Any]):
    assert [m["id"] for m in with_content_ids(messages)] == ids


def test_learn_skips_secrets_and_says_why(vault_dir: Path):
    chat = [{"role": "user", "content": f"My OpenAI key is {SECRET}, keep it safe."}]
    result = run(
        vault_dir, lambda c: c.call_tool("learn", {"messages": chat, "conversation_id": "s"})
    )
    assert not result.is_error and SECRET not in json.dumps(result.structured_content)
    assert result.structured_content["counts"]["create"] == 0
    reasons = [s["reason"] for s in result.structured_content["skipped_sentences"]]
    assert any("secret" in reason for reason in reasons)


def test_a_bad_message_is_one_line_from_the_library(vault_dir: Path):
    chat = [{"role": "user", "content": "hi", "timestamp": "2023-02-30"}]
    result = run(
        vault_dir, lambda c: c.call_tool("learn", {"messages": chat, "conversation_id": "c"})
    )
    message = text_of(result)
    assert result.is_error and "\n" not in message
    assert "message 1" in message and "not a real date" in message


def test_pause_stops_learning_and_resume_restarts_it(vault_dir: Path):
    async def scenario(client: Client) -> list[Any]:
        paused = await client.call_tool("pause", {})
        blocked = await client.call_tool("learn", {"messages": CHAT, "conversation_id": "c"})
        status = await client.call_tool("overview", {})
        resumed = await client.call_tool("resume", {})
        learned = await client.call_tool("learn", {"messages": CHAT, "conversation_id": "c"})
        return [paused, blocked, status, resumed, learned]

    paused, blocked, status, resumed, learned = run(vault_dir, scenario)
    assert paused.structured_content == {"learning": "paused"}
    assert blocked.structured_content["paused"] and "paused" in text_of(blocked)
    assert blocked.structured_content["outcomes"] == []
    assert status.structured_content["learning"] == "paused"
    assert resumed.structured_content == {"learning": "on"}
    assert learned.structured_content["counts"]["create"] == 3


def test_recall_filters_by_types_and_limits(vault_dir: Path):
    async def scenario(client: Client) -> list[Any]:
        await client.call_tool("learn", {"messages": CHAT, "conversation_id": "c1"})
        await client.call_tool("remember", {"type": "goal", "text": "Wants to live in Lisbon"})
        query = "Where do I live and do I like dark mode?"
        return [
            await client.call_tool("recall", {"message": query}),
            await client.call_tool("recall", {"message": query, "types": ["goal"]}),
            await client.call_tool("recall", {"message": query, "types": ["goal", "preference"]}),
            await client.call_tool("recall", {"message": query, "limit": 1}),
            await client.call_tool("recall", {"message": "zebra xylophone"}),
        ]

    every, goals, two, one, nothing = run(vault_dir, scenario)
    types = [m["type"] for m in every.structured_content["memories"]]
    assert {"identity", "preference", "goal"} <= set(types)
    assert [m["type"] for m in goals.structured_content["memories"]] == ["goal"]
    assert {m["type"] for m in two.structured_content["memories"]} == {"goal", "preference"}
    assert len(one.structured_content["memories"]) == 1
    assert nothing.structured_content == {"memories": []}
    assert text_of(nothing) == "No memories match."
    for memory in every.structured_content["memories"]:
        if memory["kind"] == "turn":  # a quote of what was said: no id, no confidence
            assert memory["id"] is None and f'said: "{memory["text"]}"' in text_of(every)
            continue
        assert memory["id"] in text_of(every) and 0 < memory["confidence"] <= 1


def test_search_confirm_and_forget(vault_dir: Path):
    async def scenario(client: Client) -> list[Any]:
        stored = await client.call_tool("remember", {"type": "habit", "text": "Swims on Fridays"})
        memory_id = stored.structured_content["id"]
        return [
            stored,
            await client.call_tool("search", {"query": "swims"}),
            await client.call_tool("search", {"query": 'C++ "unbalanced'}),
            await client.call_tool("confirm", {"id": memory_id[:10]}),
            await client.call_tool("forget", {"id": memory_id}),
            await client.call_tool("forget", {"id": memory_id}),
            await client.call_tool("confirm", {"id": "nope-not-an-id"}),
        ]

    stored, hits, odd, confirmed, forgot, again, unknown = run(vault_dir, scenario)
    path = stored.structured_content["path"]
    assert hits.structured_content["hits"][0]["path"] == path
    assert "**Swims**" in hits.structured_content["hits"][0]["snippet"]
    assert not odd.is_error and odd.structured_content == {"hits": []}
    assert confirmed.structured_content == {"path": path}
    assert forgot.structured_content == {"path": path} and not (vault_dir / path).exists()
    assert again.is_error and "no memory with id" in text_of(again)
    assert unknown.is_error and "nope-not-an-id" in text_of(unknown)


def test_a_secret_in_a_persons_own_note_reaches_the_model_redacted(vault_dir: Path):
    note = vault_dir / "identity" / "Gmail.md"
    note.parent.mkdir(exist_ok=True)
    note.write_text("My gmail password is Blue-Horse-42!\n")

    async def scenario(client: Client) -> list[Any]:
        return [
            await client.call_tool("search", {"query": "gmail"}),
            await client.call_tool("recall", {"message": "what is my gmail password?"}),
        ]

    with Vault.open(vault_dir) as vault:
        vault.sync()
    searched, recalled = run(vault_dir, scenario)
    for result in (searched, recalled):
        assert "Blue-Horse" not in text_of(result) and "Blue-Horse" not in str(
            result.structured_content
        )
    assert "[REDACTED password]" in searched.structured_content["hits"][0]["text"]


def test_forget_names_the_memories_an_ambiguous_prefix_starts(vault_dir: Path):
    async def scenario(client: Client) -> tuple[list[str], Any]:
        ids = []
        for text in ("Swims on Fridays", "Swims on Sundays"):
            stored = await client.call_tool("remember", {"type": "habit", "text": text})
            ids.append(stored.structured_content["id"])
        return ids, await client.call_tool("forget", {"id": ids[0][:4]})

    ids, refused = run(vault_dir, scenario)
    assert ids[0][:4] == ids[1][:4]
    assert refused.is_error
    assert f"ambiguous: 2 memories start with {ids[0][:4]!r}" in text_of(refused)
    assert "habit/Swims on Fridays.md" in text_of(refused)


def test_confirm_raises_confidence_in_the_note(vault_dir: Path):
    async def scenario(client: Client) -> str:
        stored = await client.call_tool(
            "remember", {"type": "habit", "text": "Reads before bed", "confidence": 0.6}
        )
        await client.call_tool("confirm", {"id": stored.structured_content["id"]})
        return stored.structured_content["id"]

    memory_id = run(vault_dir, scenario)
    with Vault.open(vault_dir) as vault:
        note, _ = vault.read(memory_id)
    assert float(note.fields["confidence"]) > 0.6 and int(note.fields["confirmations"]) == 2


def test_overview_counts(vault_dir: Path):
    async def scenario(client: Client) -> Any:
        await client.call_tool("learn", {"messages": CHAT, "conversation_id": "c1"})
        return await client.call_tool("overview", {})

    result = run(vault_dir, scenario)
    data = result.structured_content
    assert data["memories"] == 3 and data["learning"] == "on"
    assert data["by_type"] == {"identity": 2, "preference": 1}
    assert "Lives in Porto." in data["profile"]
    assert text_of(result).startswith("3 memories in ")
    assert data["active"] == 3 and data["by_status"] == {"active": 3}
    assert "(3 active)" in text_of(result).splitlines()[0]


def test_overview_says_which_memories_are_active(vault_dir: Path):
    """Counted apart: a superseded memory is no memory recall uses (the review's `goal 1`)."""
    chat = [{"role": "user", "content": "I live in Porto."}]
    moved = [{"role": "user", "content": "I live in Lisbon now."}]

    async def scenario(client: Client) -> Any:
        await client.call_tool("learn", {"messages": chat, "conversation_id": "a"})
        await client.call_tool("learn", {"messages": moved, "conversation_id": "b"})
        return await client.call_tool("overview", {})

    result = run(vault_dir, scenario)
    data = result.structured_content
    assert data["memories"] == 2 and data["by_type"] == {"identity": 2}
    assert data["by_status"] == {"active": 1, "superseded": 1}
    text = text_of(result)
    assert "(1 active, 1 superseded)" in text.splitlines()[0]
    assert "By type: identity 1 active, 1 superseded" in text


# --- in-process: resources and the prompt ------------------------------------------------------


def test_a_memory_resource_is_the_note_as_on_disk(vault_dir: Path):
    async def scenario(client: Client) -> tuple[Any, Any]:
        stored = await client.call_tool("remember", {"type": "identity", "text": "Is a nurse"})
        memory_id = stored.structured_content["id"]
        return stored, await client.read_resource(f"tota://memory/{memory_id}")

    stored, read = run(vault_dir, scenario)
    disk = (vault_dir / stored.structured_content["path"]).read_text("utf-8")
    assert read.contents[0].text == disk and read.contents[0].mime_type == "text/markdown"


@pytest.mark.parametrize("ref", ["01ABCDEFGHJKMNPQRSTVWXYZ00", "identity%2FIs%20a%20nurse", ".."])
def test_an_unknown_memory_resource_is_not_found(vault_dir: Path, ref: str):
    async def scenario(client: Client) -> MCPError:
        await client.call_tool("remember", {"type": "identity", "text": "Is a nurse"})
        with pytest.raises(MCPError) as caught:
            await client.read_resource(f"tota://memory/{ref}")
        assert (await client.call_tool("overview", {})).structured_content["memories"] == 1
        return caught.value

    assert run(vault_dir, scenario).error.code == -32602


def test_the_profile_resource(vault_dir: Path):
    async def scenario(client: Client) -> tuple[Any, Any]:
        empty = await client.read_resource("tota://profile")
        await client.call_tool("learn", {"messages": CHAT, "conversation_id": "c1"})
        return empty, await client.read_resource("tota://profile")

    empty, full = run(vault_dir, scenario)
    assert "nothing yet" in empty.contents[0].text
    text = full.contents[0].text
    assert text.startswith("## Profile") and "Lives in Porto." in text


def test_the_memory_prompt_is_the_menu(vault_dir: Path):
    async def scenario(client: Client) -> tuple[Any, Any]:
        learned = await client.call_tool("learn", {"messages": CHAT, "conversation_id": "c1"})
        on = await client.get_prompt("memory")
        await client.call_tool("pause", {})
        return learned, on, await client.get_prompt("memory")

    learned, on, paused = run(vault_dir, scenario)
    text = on.messages[0].content.text
    assert on.messages[0].role == "user"
    for outcome in learned.structured_content["outcomes"]:
        assert outcome["text"] in text
    with Vault.open(vault_dir) as vault:
        ids = [r.id for r in vault.recall("Dana Porto dark mode", 5) if r.kind == "memory"]
    assert ids and all(memory_id in text for memory_id in ids)
    for offer in ("`search`", "`forget`", "`pause`", "tota clear --yes", "3 memories"):
        assert offer in text
    assert "`resume`" in paused.messages[0].content.text


# --- the documented example --------------------------------------------------------------------


def test_the_example_in_docs_mcp_runs_as_documented(tmp_path: Path):
    doc = (ROOT / "docs" / "mcp.md").read_text("utf-8")
    code = re.search(r"```python\n(.+?)```", doc, re.S).group(1)
    expected = re.search(r"It prints:\n\n```text\n(.+?)```", doc, re.S).group(1)
    home = tmp_path / "home"
    home.mkdir()
    # As a person runs it: `tota` on the PATH, the default vault under HOME (here a temp one).
    env = {k: v for k, v in os.environ.items() if k not in ("TOTA_HOME", "TOTA_VAULT")}
    env["HOME"] = str(home)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60
    )
    assert done.returncode == 0, done.stderr

    def masked(text: str) -> str:
        return re.sub(r"\b[0-9A-Z]{26}\b", "<id>", re.sub(r"\d{4}-\d\d-\d\d", "<date>", text))

    assert masked(done.stdout) == masked(expected)
    assert (home / ".tota" / "memory" / "second-brain" / "identity" / "Lives in Porto.md").is_file()


def test_a_link_into_git_never_reaches_the_model(vault_dir: Path):
    """A note linked to `.git/config` (which can hold a token) is not searched or recalled."""
    (vault_dir / ".git").mkdir()
    (vault_dir / ".git" / "config").write_text(
        '[remote "origin"]\n\turl = https://me:GITCREDZZ@example.com/v.git\n'
    )
    (vault_dir / "goal" / "g.md").symlink_to("../.git/config")
    with Vault.open(vault_dir) as vault:
        assert "hidden folder" in dict(vault.sync().invalid)["goal/g.md"]

    async def scenario(client: Client) -> list[Any]:
        return [
            await client.call_tool("search", {"query": "GITCREDZZ"}),
            await client.call_tool("search", {"query": "remote origin url"}),
            await client.call_tool("recall", {"message": "what is the git remote url GITCREDZZ"}),
        ]

    token, words, recalled = run(vault_dir, scenario)
    assert token.structured_content == {"hits": []}
    assert words.structured_content == {"hits": []}
    assert not recalled.is_error
    assert "example.com" not in text_of(recalled) + str(recalled.structured_content)
