"""Bad input gets a clear error and loses nothing (design invariant 7).

Each bad note sits in a vault beside two good ones. A sync must finish, keep both good notes
searchable, leave the bad file's bytes (and mtime) exactly as written, and name the file with a
reason in `doctor` and `tota doctor`; where the note has readable text, that text stays
findable. Search text that FTS5 would reject never surfaces as a traceback.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pwd
import select
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import write
from typer.testing import CliRunner, Result

from tota_vault import Vault
from tota_vault.cli import app
from tota_vault.errors import QueryError, TotaError

TEA_ID = "01JDX3M7Q9T8ZK4W5N6P2R1S0V"
RUN_ID = "01JDX3N2B8C4D6E7F9G0H1J2K3"

GOOD = """---
id: {id}
type: {type}
confidence: 0.8
importance: 0.5
durability: 0.9
evidence: direct
status: active
created: 2026-11-29T11:43:00
updated: 2026-11-29T11:43:00
confirmed: 2026-11-29T11:43:00
confirmations: 1
subject: user
sources:
  - chat-2026-11-29#12
tags:
  - tota/{type}
---
{text}
"""
TEA = GOOD.format(id=TEA_ID, type="preference", text="Likes green tea every morning.")
RUN = GOOD.format(id=RUN_ID, type="goal", text="Wants to run a marathon in Lisbon.")
GOOD_NOTES = {"preference/Likes tea.md": TEA, "goal/Run a marathon.md": RUN}
GOOD_QUERIES = {"preference/Likes tea.md": "green tea", "goal/Run a marathon.md": "marathon"}

BIG_BYTES = 20 * 1024 * 1024
BIG_LINE = b"lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod\n"
ALIAS_BOMB = (
    b"---\n"
    b'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
    b"b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
    b"c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
    b"d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n"
    b"e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n"
    b"f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n"
    b"g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\n"
    b"h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]\n"
    b"i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]\n"
    b"type: preference\n"
    b"---\n"
    b"Laughs at the billion laughs gecko.\n"
)


def fm(body: str, text: str) -> bytes:
    return f"---\n{body}---\n{text}\n".encode()


def make_big(path: Path) -> None:
    """Write ~20 MB of words in chunks (never held in memory whole)."""
    chunk = BIG_LINE * 1024
    with open(path, "wb") as handle:
        while handle.tell() < BIG_BYTES:
            handle.write(chunk)


def make_symlink_loop(path: Path) -> None:
    os.symlink(path.name, path)


def make_fifo(path: Path) -> None:
    os.mkfifo(path)


@dataclass(frozen=True)
class Bad:
    """One bad input: where it goes, how to make it, what doctor must say, what stays findable."""

    rel: str
    make: bytes | Callable[[Path], None]
    reason: str  # a word the reason must contain
    findable: tuple[str, ...]  # queries that must find the note


BAD = [
    Bad("preference/Broken yaml.md", fm("type: preference\nkey: [unclosed\n", "Feeds the zebra."),
        "YAML", ("zebra",)),
    Bad(
        "preference/Merge conflict.md",
        fm("type: preference\n<<<<<<< HEAD\nconfidence: 0.8\n=======\nconfidence: 0.6\n"
           ">>>>>>> branch\n", "Keeps a quokka."),
        "conflict", ("quokka",),
    ),
    Bad("preference/List frontmatter.md", fm("- a\n- b\n", "Walrus sightings."), "list",
        ("walrus",)),
    Bad("preference/Scalar frontmatter.md", fm("just a scalar\n", "Ocelot stories."), "mapping",
        ("ocelot",)),
    Bad("preference/Unknown type.md", fm("type: food\n", "Eats kohlrabi."), "unknown type",
        ("kohlrabi",)),
    Bad("preference/Score too high.md", fm("type: preference\nconfidence: 1.7\n", "Tapir."),
        "[0, 1]", ("tapir",)),
    Bad("preference/Score not a number.md", fm("type: preference\nconfidence: high\n",
        "Pangolin."), "not a number", ("pangolin",)),
    Bad("preference/Bad date.md", fm("type: preference\ncreated: 2023-13-45\n", "Axolotl."),
        "date", ("axolotl",)),
    Bad("preference/Latin one.md", b"---\ntype: preference\n---\nLoves caf\xe9 au lait narwhal.\n",
        "UTF-8", ("narwhal", "lait", "café")),
    Bad("preference/Screenshot.md", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00" * 64,
        "binary", ("screenshot",)),
    Bad("preference/Empty thought.md", b"", "empty", ("empty thought",)),
    Bad("Huge dump.md", make_big, "too large", ("huge dump",)),
    Bad("loop.md", make_symlink_loop, "loop", ("loop",)),
    Bad("pipe.md", make_fifo, "regular file", ("pipe",)),
    Bad("preference/Alias bomb.md", ALIAS_BOMB, "alias", ("gecko",)),
]  # fmt: skip


def ident(path: Path) -> tuple[object, ...]:
    """What must not change about a file: its kind, bytes (hashed) or link target, and mtime."""
    st = os.lstat(path)
    if stat.S_ISLNK(st.st_mode):
        return ("link", os.readlink(path), st.st_mtime_ns)
    if stat.S_ISFIFO(st.st_mode):
        return ("fifo", stat.S_IMODE(st.st_mode), st.st_mtime_ns)
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return ("file", digest.hexdigest(), st.st_size, st.st_mtime_ns, stat.S_IMODE(st.st_mode))


@contextlib.contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Fail instead of hanging (a FIFO opened for reading blocks until a writer comes)."""

    def expire(signum: int, frame: object) -> None:
        raise TimeoutError(f"still running after {seconds}s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def add_good_notes(root: Path) -> dict[str, bytes]:
    for rel, text in GOOD_NOTES.items():
        write(root, rel, text)
    return {rel: (root / rel).read_bytes() for rel in GOOD_NOTES}


def place(root: Path, bad: Bad) -> Path:
    path = root / bad.rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(bad.make, bytes):
        path.write_bytes(bad.make)
    else:
        bad.make(path)
    return path


def found(vault: Vault, query: str) -> list[str]:
    return [hit.path for hit in vault.search(query, limit=50)]


def cli(root: Path, *args: str) -> Result:
    result = CliRunner().invoke(app, ["--vault", str(root), *args])
    assert result.exception is None or isinstance(result.exception, SystemExit | TotaError), (
        f"{args}: {result.exception!r}\n{result.output}"
    )
    assert "Traceback" not in result.output
    return result


def assert_good_notes_searchable(vault: Vault) -> None:
    for rel, query in GOOD_QUERIES.items():
        assert rel in found(vault, query), f"good note {rel} not found by {query!r}"


@pytest.mark.parametrize("bad", BAD, ids=[b.rel.rsplit("/", 1)[-1][:-3] for b in BAD])
def test_bad_note_is_reported_findable_and_untouched(vault_dir: Path, bad: Bad) -> None:
    good_bytes = add_good_notes(vault_dir)
    path = place(vault_dir, bad)
    before = ident(path)

    with deadline(20), Vault.open(vault_dir) as vault:
        report = vault.sync()
        invalid = dict(report.invalid)
        assert bad.rel in invalid, report.invalid
        assert bad.reason.lower() in invalid[bad.rel].lower()
        assert set(invalid) == {bad.rel}  # the good notes are fine
        assert_good_notes_searchable(vault)
        for query in bad.findable:
            assert bad.rel in found(vault, query), f"{query!r} does not find {bad.rel}"

        doctor = vault.doctor()
        assert not doctor.ok
        reasons = dict(doctor.invalid)
        assert bad.reason.lower() in reasons[bad.rel].lower()
        assert doctor.drift == []

        again = vault.sync()  # nothing changed: the bad note is still reported, still intact
        assert bad.rel in dict(again.invalid)

    with deadline(20):
        synced = cli(vault_dir, "sync")
        assert synced.exit_code in (0, 1)
        assert bad.rel in synced.output
        doctored = cli(vault_dir, "doctor")
    assert doctored.exit_code == 1
    assert bad.rel in doctored.output
    assert bad.reason.lower() in doctored.output.lower()

    assert ident(path) == before
    if isinstance(bad.make, bytes):
        assert path.read_bytes() == bad.make
    for rel, data in good_bytes.items():
        assert (vault_dir / rel).read_bytes() == data
    if bad.make is make_big:
        path.unlink()  # 20 MB: do not keep it on disk after the test either


def test_unreadable_note_is_not_updated_on_every_sync(vault_dir: Path) -> None:
    add_good_notes(vault_dir)
    os.mkfifo(vault_dir / "pipe.md")
    with deadline(20), Vault.open(vault_dir) as vault:
        vault.sync()
        again = vault.sync()
    assert again.updated == [] and not again.changed


def test_latin1_word_is_findable_as_written(vault_dir: Path) -> None:
    add_good_notes(vault_dir)
    data = b"---\ntype: preference\n---\nLoves caf\xe9 au lait and cr\xe8me br\xfbl\xe9e.\n"
    write(vault_dir, "preference/Latin one.md", data)
    with Vault.open(vault_dir) as vault:
        vault.sync()
        for query in ("café", "cafe", "crème", "brûlée"):
            assert found(vault, query) == ["preference/Latin one.md"], query
    assert (vault_dir / "preference/Latin one.md").read_bytes() == data


def test_bom_before_a_valid_note_is_a_valid_memory(vault_dir: Path) -> None:
    good_bytes = add_good_notes(vault_dir)
    text = GOOD.format(id="01JDX3P0000000000000000000", type="habit", text="Stretches at dawn.")
    data = b"\xef\xbb\xbf" + text.encode()
    path = write(vault_dir, "habit/Stretches.md", data)
    mtime = path.stat().st_mtime_ns
    with Vault.open(vault_dir) as vault:
        report = vault.sync()
        assert report.invalid == []
        assert report.ids_assigned == []
        assert found(vault, "stretches") == ["habit/Stretches.md"]
        row = vault.index.get(path="habit/Stretches.md")[0]
        assert row.error is None
        assert row.memory_id == "01JDX3P0000000000000000000"
        assert row.type == "habit"
        assert_good_notes_searchable(vault)
        assert vault.doctor().ok
    assert cli(vault_dir, "doctor").exit_code == 0
    assert path.read_bytes() == data
    assert path.stat().st_mtime_ns == mtime
    for rel, good in good_bytes.items():
        assert (vault_dir / rel).read_bytes() == good


def test_duplicated_id_is_reported_with_both_paths(vault_dir: Path) -> None:
    good_bytes = add_good_notes(vault_dir)
    copy = vault_dir / "preference" / "Likes tea copy.md"
    shutil.copy2(vault_dir / "preference/Likes tea.md", copy)
    mtimes = {p: p.stat().st_mtime_ns for p in vault_dir.rglob("*.md")}
    with Vault.open(vault_dir) as vault:
        report = vault.sync()
        assert report.invalid == []
        doctor = vault.doctor()
        assert doctor.duplicate_ids == {
            TEA_ID: ["preference/Likes tea copy.md", "preference/Likes tea.md"]
        }
        assert not doctor.ok
        assert sorted(found(vault, "green tea")) == [
            "preference/Likes tea copy.md",
            "preference/Likes tea.md",
        ]
        assert_good_notes_searchable(vault)
    result = cli(vault_dir, "doctor")
    assert result.exit_code == 1
    line = next(line for line in result.output.splitlines() if TEA_ID in line)
    assert "duplicate" in line
    assert "preference/Likes tea.md" in line and "preference/Likes tea copy.md" in line
    assert copy.read_bytes() == good_bytes["preference/Likes tea.md"]
    for rel, data in good_bytes.items():
        assert (vault_dir / rel).read_bytes() == data
    assert {p: p.stat().st_mtime_ns for p in vault_dir.rglob("*.md")} == mtimes


def test_note_that_turns_invalid_then_is_fixed(vault_dir: Path) -> None:
    add_good_notes(vault_dir)
    rel = "preference/Likes tea.md"
    path = vault_dir / rel
    broken = TEA.replace("confidence: 0.8\n", "confidence: [0.8\n").encode()
    with Vault.open(vault_dir) as vault:
        assert vault.sync().invalid == []
        assert vault.index.get(path=rel)[0].memory_id == TEA_ID

        path.write_bytes(broken)
        report = vault.sync()
        assert rel in report.updated
        assert "YAML" in dict(report.invalid)[rel]
        assert "YAML" in dict(vault.doctor().invalid)[rel]
        assert found(vault, "green tea") == [rel]  # its words are still found
        row = vault.index.get(path=rel)[0]
        assert row.error is not None
        assert path.read_bytes() == broken  # never "repaired" by a rewrite
        assert "Likes green tea every morning." in path.read_text("utf-8")

        path.write_bytes(TEA.encode())  # the fix is a hand edit: tota may record it by a patch
        report = vault.sync()
        assert report.invalid == []
        row = vault.index.get(path=rel)[0]
        assert row.error is None and row.memory_id == TEA_ID
        assert vault.doctor().ok
        assert found(vault, "green tea") == [rel]
    fixed = path.read_text("utf-8")
    assert fixed.endswith("---\nLikes green tea every morning.\n")
    assert f"\nid: {TEA_ID}\n" in fixed and "\nsources:\n  - chat-2026-11-29#12\n" in fixed


# --- unreadable files and folders (tests run as root, and chmod 000 does not stop root) ----------

UNREADABLE = "preference/Secret diary.md"
Runner = Callable[..., tuple[int, str]]


def nobody() -> pwd.struct_passwd:
    try:
        return pwd.getpwnam("nobody")
    except KeyError:
        pytest.skip("no user 'nobody' on this machine")


def become(user: pwd.struct_passwd) -> None:
    """Drop this (forked) process to `user`: groups first, then gid, then uid."""
    os.setgroups([])
    os.setgid(user.pw_gid)
    os.setuid(user.pw_uid)


def run_as(user: pwd.struct_passwd, args: list[str], workdir: Path) -> tuple[int, str]:
    """Run `python -m tota_vault ARGS` as `user`; return (exit code, stdout + stderr).

    When `user` cannot even execute this interpreter (it lives under a private home, as with
    pyenv in /root), fall back to a forked child that drops to `user` and runs the same CLI
    entry point in-process: the file access checks are the kernel's either way.
    """
    env = {**os.environ, "TOTA_HOME": str(workdir / "home"), "HOME": str(workdir)}
    env.pop("TOTA_VAULT", None)
    try:
        done = subprocess.run(
            [sys.executable, "-m", "tota_vault", *args],
            user=user.pw_uid,
            group=user.pw_gid,
            extra_groups=[],
            cwd=workdir,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
    except PermissionError:
        return fork_as(user, args, workdir)
    return done.returncode, done.stdout + done.stderr


def fork_as(user: pwd.struct_passwd, args: list[str], workdir: Path) -> tuple[int, str]:
    # The child may not be able to import anything from the interpreter's private folder once
    # it has dropped root: run the same commands here first so every module it needs is loaded.
    warm = workdir / "warm"
    if not warm.exists():
        add_good_notes(warm)
        for command in (["sync"], ["doctor"], ["search", "tea"], ["search", "nothing"]):
            cli(warm, *command)

    out_path = workdir / f"out-{os.getpid()}.txt"
    out_path.write_bytes(b"")
    out_path.chmod(0o666)
    out = open(out_path, "w")  # noqa: SIM115 - handed to the forked child, closed after it
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        code = 70
        try:
            become(user)
            os.chdir(workdir)
            os.environ["TOTA_HOME"] = str(workdir / "home")
            sys.stdout = sys.stderr = out
            sys.argv = ["tota", *args]
            from tota_vault.cli import main

            try:
                main()
                code = 0
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else 1
        except BaseException as exc:  # report it; never return into pytest
            out.write(f"child failed: {exc!r}\n")
        finally:
            out.flush()
            os._exit(code)
    out.close()
    pidfd = os.pidfd_open(pid)
    try:
        ready, _, _ = select.select([pidfd], [], [], 60)
        if not ready:
            os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
    finally:
        os.close(pidfd)
    assert ready, f"tota {' '.join(args)} as {user.pw_name} did not finish in 60 s"
    return os.waitstatus_to_exitcode(status), out_path.read_text()


@pytest.fixture
def shared_vault(tmp_path: Path) -> Iterator[tuple[Path, Runner]]:
    """A vault with the two good notes, and `run(*args)`: `tota --vault V ARGS` as a user whom
    file permissions bind (`nobody` when the tests run as root, else the current user)."""
    if os.geteuid() != 0:
        root = tmp_path / "vault"
        Vault(root).init()
        add_good_notes(root)

        def run_here(*args: str) -> tuple[int, str]:
            result = cli(root, *args)
            return result.exit_code, result.output

        yield root, run_here
        for folder, _dirs, files in os.walk(root):  # let pytest clean up
            os.chmod(folder, 0o700)
            for name in files:
                os.chmod(os.path.join(folder, name), 0o600)
        return

    user = nobody()
    base = Path(tempfile.mkdtemp(dir="/tmp"))
    try:
        base.chmod(0o777)
        root = base / "vault"
        Vault(root).init()
        add_good_notes(root)
        for folder, _dirs, files in os.walk(root):
            os.chmod(folder, 0o755)
            for name in files:
                os.chmod(os.path.join(folder, name), 0o644)
        root.chmod(0o777)  # the other user creates .tota/ here

        def run_other(*args: str) -> tuple[int, str]:
            return run_as(user, ["--vault", str(root), *args], base)

        yield root, run_other
    finally:
        shutil.rmtree(base, ignore_errors=True)


def test_unreadable_note_is_reported_and_the_rest_syncs(
    shared_vault: tuple[Path, Runner],
) -> None:
    root, run = shared_vault
    good_bytes = {rel: (root / rel).read_bytes() for rel in GOOD_NOTES}
    data = fm("type: preference\n", "Private thoughts about the okapi.")
    secret = write(root, UNREADABLE, data)
    secret.chmod(0)
    before = ident(secret)

    code, output = run("sync")
    assert code == 0, output
    assert "Traceback" not in output
    assert UNREADABLE in output and "permission denied" in output

    code, output = run("search", "marathon")
    assert code == 0 and "Run a marathon" in output, output
    code, output = run("search", "green tea")
    assert code == 0 and "Likes tea" in output, output

    code, output = run("doctor")
    assert code == 1, output
    assert UNREADABLE in output and "permission denied" in output

    assert ident(secret) == before
    secret.chmod(0o600)
    assert secret.read_bytes() == data
    for rel, good in good_bytes.items():
        assert (root / rel).read_bytes() == good

    secret.chmod(0o644)  # readable again: the next sync indexes it, doctor is content
    code, output = run("sync")
    assert code == 0 and "permission denied" not in output, output
    code, output = run("search", "okapi")
    assert code == 0 and "Secret diary" in output, output
    code, output = run("doctor")
    assert code == 0, output


def test_unreadable_folder_is_reported_and_its_notes_kept(
    shared_vault: tuple[Path, Runner],
) -> None:
    root, run = shared_vault
    assert run("sync")[0] == 0
    (root / "goal").chmod(0o700 if os.geteuid() == 0 else 0)  # root-owned: the other user is out
    try:
        code, output = run("sync")
        assert code == 0, output
        assert "goal" in output and "permission denied" in output, output
        code, output = run("doctor")
        assert code == 1 and "goal" in output, output
    finally:
        (root / "goal").chmod(0o755)
    code, output = run("search", "marathon")
    assert code == 0 and "Run a marathon" in output, output


# --- queries FTS5 would reject -------------------------------------------------------------------

WORDY = (
    "Maintains the legacy C++ fare service; the foo-bar adapter is unbalanced. NOT AND OR are "
    "plain words here, a or b. The cat's toy (x) has a title: run NEAR a b, running daily."
)
QUERIES = [
    ("C++", True),
    ("foo-bar", True),
    ('"unbalanced', True),
    ("NOT", True),
    ("AND", True),
    ("a OR", True),
    ("(x", True),
    ("title:run", True),
    ("run*", True),
    ("cat's", True),
    ("NEAR(a b)", True),
    ("*", False),
    ('"', False),
    ("''", False),
    ("^", False),
    ("", False),
    ("   ", False),
    ('""', False),
    ("-", False),
]
QUERY_IDS = [q if q.strip() else f"blank{len(q)}" for q, _ in QUERIES]


@pytest.fixture
def wordy_vault(vault_dir: Path) -> Iterator[Vault]:
    add_good_notes(vault_dir)
    write(vault_dir, "project/Fare service.md", fm("type: project\n", WORDY))
    with Vault.open(vault_dir) as vault:
        vault.sync()
        yield vault


@pytest.mark.parametrize(("query", "wordy"), QUERIES, ids=QUERY_IDS)
def test_search_any_text_without_a_traceback(wordy_vault: Vault, query: str, wordy: bool) -> None:
    try:
        hits = wordy_vault.search(query)
    except QueryError as exc:
        assert not wordy, f"{query!r} has words to search for: {exc}"
        assert "\n" not in str(exc)
        return
    if wordy:
        assert "project/Fare service.md" in [hit.path for hit in hits]


@pytest.mark.parametrize(("query", "wordy"), QUERIES, ids=QUERY_IDS)
def test_cli_search_any_text_without_a_traceback(
    wordy_vault: Vault, query: str, wordy: bool
) -> None:
    result = cli(wordy_vault.root, "search", query)
    # an empty text is a usage error (README: exit 2), as `recall ""` is
    assert result.exit_code == 2 if not query.strip() else result.exit_code in (0, 1)
    if result.exit_code in (1, 2):
        assert not wordy
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("tota: error:"), result.stderr
    if wordy:
        assert result.exit_code == 0
        assert "Fare service" in result.output


RAW_BROKEN = ["NEAR(", "a AND", "title:", "nocolumn:x", '"x', "(a OR", "AND b"]


@pytest.mark.parametrize("query", RAW_BROKEN)
def test_raw_search_with_broken_syntax_is_a_query_error(wordy_vault: Vault, query: str) -> None:
    with pytest.raises(QueryError) as caught:
        wordy_vault.search(query, raw=True)
    assert repr(query) in str(caught.value) or query in str(caught.value)
    result = cli(wordy_vault.root, "search", "--raw", query)
    assert result.exit_code == 1
    assert isinstance(result.exception, SystemExit)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("tota: error:")
    assert query in lines[0]


def test_raw_search_passes_fts5_syntax_through(wordy_vault: Vault) -> None:
    assert [h.path for h in wordy_vault.search("title:marathon", raw=True)] == [
        "goal/Run a marathon.md"
    ]
    assert [h.path for h in wordy_vault.search("legacy AND fare", raw=True)] == [
        "project/Fare service.md"
    ]
