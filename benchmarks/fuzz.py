"""Bad-input fuzz benchmark (issue 9, item 7): `python benchmarks/fuzz.py [--inputs 5000] [--seed 1]`.

Takes the project's own files (scenarios, the rulings cases, the template set,
saves of seeded bot games, the Deadlands board files), applies one mutation to
each copy (about one in ten gets two), and runs every mutated file through the
commands that read it, in-process through ``simulator.cli.main`` in worker
processes (a 3 GB address-space cap, 20 s per command; a worker past it is
killed by its pid and counts as a hang):

- scenarios: ``rule``, ``check``, ``render`` (one in ten also ``simulate --games 1``);
- rulings files: ``rule``, ``render``, ``check``;
- template sets: ``export-templates``, ``rule --template-set`` (one in ten ``simulate``);
- saves: ``render``, and loading, continuing 60 bot decisions, saving and loading again;
- board files: ``rule``, ``render``.

Mutations are textual (truncation, byte flips, deleted, duplicated or
shuffled lines, a BOM, CRLF, deep nesting, random bytes, an empty file,
Latin-1) or on the parsed tree (deleted keys, wrong types, NaN and
infinities, extreme numbers, empty arrays, duplicated items, odd Unicode, long
strings, unknown keys, nested junk, a tampered save version or seed).

Printed per kind: inputs; clean errors (and how many name file, key and reason
on every line); accepted; wrong acceptances (accepted although the mutation
must be refused: a non-finite or out-of-range number, a boolean or number of
another type, an unknown key, a tampered save version or seed); tracebacks;
hangs. Then the traceback signatures with an example each (``--keep DIR``
keeps every crashing input). The baseline in the same run is the unmutated
corpus, which must be all accepted. Target: 0 tracebacks, 0 hangs.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import multiprocessing as mp
import os
import random
import re
import resource
import shutil
import signal
import sys
import tempfile
import time
import tomllib
import traceback
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
KINDS = ("scenario", "rulings", "template_set", "save", "board")
COMMAND_TIMEOUT_S = 20.0
MEMORY_CAP_BYTES = 3 * 1024**3
NAMED = re.compile(r"^(?!gaslands: )[^:\n]+: [^\n]+?: .+$")
WARNING = re.compile(r"(Warning|warnings\.warn|^\s)")


# --------------------------------------------------------------------------- corpus


def make_saves(folder: Path) -> list[Path]:
    """Three saves of seeded bot games (Street Race, Death Race), part-way through."""
    from simulator.gaslands.bots import Bot
    from simulator.gaslands.game import Options
    from simulator.scenario.loader import load_scenario
    from simulator.scenario.saves import save
    from simulator.scenario.setup import new_game

    out = []
    for name, seed, steps in (("street_race", 3, 60), ("street_race", 8, 140), ("death_race", 2, 90)):
        game = new_game(load_scenario(ROOT / "scenarios" / f"{name}.toml"), seed=seed,
                        options=Options(round_limit=30))
        bot = Bot()
        for _ in range(steps):
            if game.prompt.kind == "game_over":
                break
            game.decide(bot.decide(game))
        path = folder / f"{name}_seed{seed}.json"
        save(game, path)
        out.append(path)
    return out


def corpus(folder: Path) -> dict[str, list[Path]]:
    boards = [ROOT / "scenarios" / n for n in ("slaughter_gulch.toml", "doomtown.toml")]
    boards += sorted((ROOT / "tests" / "cases" / "boards").glob("*.toml"))
    return {
        "scenario": [ROOT / "scenarios" / "street_race.toml", ROOT / "scenarios" / "death_race.toml"],
        "rulings": sorted((ROOT / "tests" / "cases").glob("*.toml")),
        "template_set": [ROOT / "simulator" / "data" / "template_sets" / "default.toml"],
        "save": make_saves(folder),
        "board": [p for p in boards if p.exists()],
    }


# --------------------------------------------------------------------------- mutations


@dataclass
class Mutant:
    """A mutated input: its text, what was done, and why it must be refused (empty: it may be accepted)."""

    data: bytes
    done: list[str] = field(default_factory=list)
    must_reject: str = ""


def _text_mutation(rng: random.Random, data: bytes) -> tuple[bytes, str, str]:
    choice = rng.randrange(11)
    lines = data.split(b"\n")
    if choice == 0:
        return data[:rng.randrange(len(data) + 1)], "truncate", ""
    if choice == 1:
        b = bytearray(data)
        for _ in range(rng.randint(1, 8)):
            if b:
                b[rng.randrange(len(b))] = rng.randrange(256)
        return bytes(b), "flip bytes", ""
    if choice == 2:
        k = rng.randrange(len(lines))
        return b"\n".join(lines[:k] + lines[k + rng.randint(1, 5):]), "delete lines", ""
    if choice == 3:
        k = rng.randrange(len(lines))
        return b"\n".join(lines[:k] + lines[k:k + rng.randint(1, 8)] * 2 + lines[k:]), "duplicate lines", ""
    if choice == 4:
        k = rng.randrange(len(lines))
        chunk = lines[k:k + 12]
        rng.shuffle(chunk)
        return b"\n".join(lines[:k] + chunk + lines[k + 12:]), "shuffle lines", ""
    if choice == 5:
        return b"\xef\xbb\xbf" + data, "BOM", ""
    if choice == 6:
        return data.replace(b"\n", b"\r\n"), "CRLF", ""
    if choice == 7:
        depth = rng.choice([100, 1000, 5000])
        junk = b"junk = " + b"[" * depth + b"]" * depth + b"\n" if not data.lstrip().startswith(b"{") else None
        if junk is None:
            return data.rstrip()[:-1] + b', "junk": ' + b"[" * depth + b"]" * depth + b"}", "deep nesting", "nested"
        return junk + data, "deep nesting", "nested too deep"
    if choice == 8:
        return bytes(rng.randrange(256) for _ in range(rng.randint(1, 4000))), "random bytes", ""
    if choice == 9:
        return b"", "empty", ""
    text = data.decode("utf-8", "replace")
    return text.replace("e", "\u00e9", 3).encode("latin-1", "replace"), "latin-1", ""


def _paths(tree: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(tree, dict):
        for k, v in tree.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(tree, list):
        for i, v in enumerate(tree):
            out += _paths(v, (*prefix, i))
    return out


def _get(tree: Any, path: tuple[Any, ...]) -> Any:
    for p in path:
        tree = tree[p]
    return tree


def _set(tree: Any, path: tuple[Any, ...], value: Any) -> None:
    _get(tree, path[:-1])[path[-1]] = value


_JUNK_STRINGS = ["\u202eevil", "a\x00b", "zero\u200bwidth", "\U0001f697", "e\u0301\u0301\u0301", "red\n", " ", "",
                 "../../evil", "日本"]


def _free(path: tuple[Any, ...]) -> bool:
    """Inside a saved log (free data) or an id (string or integer): no type is wrong there."""
    return bool(path) and (path[0] == "log" or path[-1] == "id")


def _tree_mutation(rng: random.Random, tree: Any, kind: str) -> tuple[str, str]:
    """Mutate ``tree`` in place; returns (what, why it must be refused or "")."""
    paths = [p for p in _paths(tree) if p]
    if not paths:
        return "nothing", ""
    path = rng.choice(paths)
    old = _get(tree, path)
    choice = rng.randrange(12)
    if kind == "save" and rng.random() < 0.15:
        key = rng.choice(["version", "seed"])
        value = rng.choice([999, 0, -1, "1", None, 3.9, "7", True, 2**70])
        tree[key] = value
        fine = (key == "version" and value in (1, 2) and not isinstance(value, bool)) or (
            key == "seed" and isinstance(value, int) and not isinstance(value, bool) and abs(value) < 2**63)
        return f"{key} = {value!r}", "" if fine else f"save {key} {value!r}"
    if choice == 0 and isinstance(path[-1], str):
        del _get(tree, path[:-1])[path[-1]]
        return f"delete {path}", ""
    if choice == 1:
        value = rng.choice([float("nan"), float("inf"), -float("inf")])
        _set(tree, path, value)
        return f"{path} = {value}", "" if _free(path) else "non-finite number"
    if choice == 2:
        value = rng.choice([1e308, -1e308, 2**63, -(2**63), -1, 0, -0.0, 5e-324, 1e30, 1e-9])
        _set(tree, path, value)
        huge = isinstance(value, int | float) and abs(value) >= 1e30
        return f"{path} = {value}", "number out of range" if huge and not _free(path) else ""
    if choice == 3:
        if isinstance(old, bool):
            value: Any = rng.choice(["false", "true", "no", 0, 1])
            why = "boolean of another type"
        elif isinstance(old, int | float):
            value, why = rng.choice([str(old), True, [old]]), "number of another type"
        elif isinstance(old, str):
            value, why = rng.choice([12, True, 1.5, [old]]), "text of another type"
        else:
            value, why = rng.choice(["x", 1, True]), ""
        _set(tree, path, value)
        return f"{path} = {value!r}", "" if _free(path) else why
    if choice == 4 and isinstance(old, list):
        _set(tree, path, [])
        return f"{path} = []", ""
    if choice == 5 and isinstance(old, list) and old:
        old.append(json.loads(json.dumps(rng.choice(old))))
        return f"duplicate in {path}", ""
    if choice == 6:
        value = rng.choice(_JUNK_STRINGS)
        _set(tree, path, value)
        return f"{path} = {value!r}", ""
    if choice == 7:
        value = "x" * rng.choice([10_000, 200_000, 1_000_000])
        _set(tree, path, value)
        return f"{path} = long string", ""
    if choice == 8:
        parent_path = path[:-1] if not isinstance(old, dict) else path
        parent = _get(tree, parent_path)
        if isinstance(parent, dict):
            parent["unexpected_key"] = 1
            return f"unknown key in {parent_path}", "" if _free(parent_path) else "unknown key"
    if choice == 9:
        junk: Any = 1
        for _ in range(rng.randint(20, 60)):
            junk = [junk]
        _set(tree, path, junk)
        return f"{path} = nested junk", "" if _free(path) else "nested junk"
    if choice == 10 and isinstance(old, list) and len(old) >= 3 and all(isinstance(p, list) for p in old):
        shape = rng.choice(["bowtie", "line", "two"])
        pts = {"bowtie": [[0, 0], [100, 100], [100, 0], [0, 100]], "line": [[0, 0], [50, 50], [100, 100]],
               "two": [[0, 0], [10, 0]]}[shape]
        _set(tree, path, pts)
        return f"{path} = {shape} polygon", "polygon not simple"
    value = rng.choice([None, {}, [], "", 0.5, -5])
    if value is None:
        value = "null"
    _set(tree, path, value)
    return f"{path} = {value!r}", ""


def _dump(tree: Any, as_json: bool) -> bytes:
    if as_json:
        return json.dumps(tree).encode("utf-8")
    import tomlkit

    return tomlkit.dumps(tree).encode("utf-8", "surrogatepass")


def mutate(rng: random.Random, original: bytes, as_json: bool, kind: str) -> Mutant:
    m = Mutant(original)
    for _ in range(2 if rng.random() < 0.1 else 1):
        if rng.random() < 0.4:
            m.data, what, why = _text_mutation(rng, m.data)
        else:
            try:
                tree = json.loads(m.data) if as_json else tomllib.loads(m.data.decode("utf-8"))
            except (ValueError, RecursionError):
                m.data, what, why = _text_mutation(rng, m.data)
            else:
                what, why = _tree_mutation(rng, tree, kind)
                try:
                    m.data = _dump(tree, as_json)
                except (TypeError, ValueError, RecursionError) as exc:
                    what, why = f"{what} (not written: {type(exc).__name__})", ""
        m.done.append(what)
        m.must_reject = m.must_reject or why
    return m


# --------------------------------------------------------------------------- running


def _limit() -> None:
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP_BYTES, MEMORY_CAP_BYTES))


def _signature(exc: BaseException) -> str:
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if "simulator" in f.filename]
    where = f"{Path(frames[-1].filename).name}:{frames[-1].lineno} {frames[-1].name}" if frames else "?"
    return f"{type(exc).__name__} at {where}"


def _save_api(path: str) -> tuple[int, str]:
    from simulator.errors import InputFileError
    from simulator.gaslands.bots import Bot
    from simulator.scenario.saves import from_json, load, to_json

    try:
        game = load(Path(path))
    except InputFileError as exc:
        return 2, "\n".join(p.render(exc.source) for p in exc.problems)
    bot = Bot()
    for _ in range(60):
        if game.prompt.kind == "game_over":
            break
        game.decide(bot.decide(game))
    from_json(json.loads(json.dumps(to_json(game))), path)
    return 0, ""


def _run(task: tuple[str, list[str]]) -> dict[str, Any]:
    what, argv = task
    err = io.StringIO()
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
            if what == "save_api":
                code, text = _save_api(argv[0])
                err.write(text)
            else:
                from simulator.cli import main

                code = main(argv)
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 2
    except BaseException as exc:  # noqa: BLE001 - every escape is what this benchmark counts
        return {"status": "traceback", "signature": _signature(exc)}
    lines = [ln for ln in err.getvalue().splitlines() if ln.strip() and not WARNING.search(ln)]
    return {"status": "done", "code": code, "lines": lines[-20:]}


def _worker(conn: Any) -> None:
    _limit()
    os.environ.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
    while True:
        task = conn.recv()
        if task is None:
            return
        conn.send(_run(task))


class Pool:
    """Worker processes answering one command at a time, killed (by pid) and replaced after a hang."""

    def __init__(self, n: int) -> None:
        self.ctx = mp.get_context("fork")
        self.workers = [self._start() for _ in range(n)]

    def _start(self) -> tuple[Any, Any]:
        parent, child = self.ctx.Pipe()
        proc = self.ctx.Process(target=_worker, args=(child,), daemon=True)
        proc.start()
        return proc, parent

    def run_all(self, tasks: list[tuple[int, tuple[str, list[str]]]]) -> dict[int, list[dict[str, Any]]]:
        results: dict[int, list[dict[str, Any]]] = defaultdict(list)
        todo = list(reversed(tasks))
        busy: dict[int, tuple[int, float]] = {}
        while todo or busy:
            for w in range(len(self.workers)):
                if w not in busy and todo:
                    key, task = todo.pop()
                    self.workers[w][1].send(task)
                    busy[w] = (key, time.monotonic())
            for w, (key, started) in list(busy.items()):
                proc, conn = self.workers[w]
                if conn.poll(0.01):
                    try:
                        results[key].append(conn.recv())
                    except EOFError:  # the worker died (out of memory in C code, a signal)
                        results[key].append({"status": "traceback", "signature": "worker died"})
                        proc.join(1)
                        self.workers[w] = self._start()
                    del busy[w]
                elif not proc.is_alive():
                    results[key].append({"status": "traceback", "signature": f"worker died ({proc.exitcode})"})
                    self.workers[w] = self._start()
                    del busy[w]
                elif time.monotonic() - started > COMMAND_TIMEOUT_S:
                    os.kill(proc.pid, signal.SIGKILL)
                    proc.join(5)
                    results[key].append({"status": "hang"})
                    self.workers[w] = self._start()
                    del busy[w]
        return results

    def close(self) -> None:
        for proc, conn in self.workers:
            with contextlib.suppress(OSError, BrokenPipeError):
                conn.send(None)
            proc.join(2)


def commands(kind: str, path: Path, out: Path, k: int, rng: random.Random) -> list[tuple[str, list[str]]]:
    f, png = str(path), str(out / f"render_{k}.png")
    small = ["--size", "640x480"]
    probe = str(ROOT / "tests" / "fixtures" / "fuzz" / "probe_rulings.toml")
    street = str(ROOT / "scenarios" / "street_race.toml")
    if kind == "scenario":
        cmds = [["rule", f], ["check", f], ["render", f, "-o", png, *small]]
        if rng.random() < 0.1:
            cmds.append(["simulate", f, "--games", "1", "--quiet"])
    elif kind == "rulings":
        cmds = [["rule", f], ["render", f, "-o", png, *small], ["check", f]]
    elif kind == "template_set":
        cmds = [["export-templates", "--template-set", f, "-o", str(out / f"sheets_{k}")],
                ["rule", "--template-set", f, probe]]
        if rng.random() < 0.1:
            cmds.append(["simulate", "--template-set", f, street, "--games", "1", "--quiet"])
    elif kind == "save":
        return [("cli", ["render", f, "-o", png, *small]), ("save_api", [f])]
    else:
        cmds = [["rule", f], ["render", f, "-o", png, *small]]
    return [("cli", c) for c in cmds]


# --------------------------------------------------------------------------- report


@dataclass
class Tally:
    inputs: int = 0
    commands: int = 0
    clean: int = 0
    named: int = 0
    accepted: int = 0
    wrong: int = 0
    tracebacks: int = 0
    hangs: int = 0


def classify(results: list[dict[str, Any]]) -> str:
    """``traceback`` or ``hang`` if any command had one; else ``accepted`` if the kind's first command (the one
    that reads the file for what it is) accepted it; else ``named`` when every refusal names file, key and
    reason on every line, or ``clean``."""
    if any(r["status"] == "traceback" for r in results):
        return "traceback"
    if any(r["status"] == "hang" for r in results):
        return "hang"
    if results and results[0]["code"] in (0, 1):  # check's 1: a valid track that breaks the rules
        return "accepted"
    refused = [r for r in results if r["code"] not in (0, 1)]
    if all(r["lines"] and all(NAMED.match(ln) for ln in r["lines"]) for r in refused):
        return "named"
    return "clean"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inputs", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=max(1, min(4, os.cpu_count() or 1)))
    parser.add_argument("--keep", help="a folder to copy every crashing or hanging input into")
    args = parser.parse_args()
    os.environ.update(SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
    sys.path.insert(0, str(ROOT))
    rng = random.Random(args.seed)
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        home = work / "home"
        home.mkdir()
        os.environ["HOME"] = str(home)
        seeds = corpus(work)
        import simulator.cli  # noqa: F401 - loaded once, before the workers fork
        import simulator.scenario.saves  # noqa: F401

        pool = Pool(args.workers)
        # the baseline: every unmutated file is accepted by every command
        base_tasks, base_kind = [], {}
        for kind in KINDS:
            for p in seeds[kind]:
                key = len(base_kind)
                base_kind[key] = kind
                base_tasks += [(key, c) for c in commands(kind, p, work, 100_000 + key, random.Random(0))]
        base = pool.run_all(base_tasks)
        base_ok = Counter(base_kind[k] for k, rs in base.items() if classify(rs) == "accepted")
        for k, rs in base.items():
            if classify(rs) != "accepted":
                print(f"baseline {base_kind[k]} #{k} not accepted: {rs}", file=sys.stderr)
        # the mutants
        tasks: list[tuple[int, tuple[str, list[str]]]] = []
        meta: dict[int, tuple[str, Mutant, Path]] = {}
        for k in range(args.inputs):
            kind = KINDS[k % len(KINDS)]
            src = rng.choice(seeds[kind])
            m = mutate(rng, src.read_bytes(), src.suffix == ".json", kind)
            path = work / f"m{k:05d}{src.suffix}"
            path.write_bytes(m.data)
            meta[k] = (kind, m, path)
            tasks += [(k, c) for c in commands(kind, path, work, k, rng)]
        results = pool.run_all(tasks)
        pool.close()
        tallies = {kind: Tally() for kind in KINDS}
        signatures: dict[str, list[str]] = defaultdict(list)
        wrong_examples: list[str] = []
        unnamed_examples: list[str] = []
        for k, (kind, m, path) in meta.items():
            t = tallies[kind]
            rs = results.get(k, [])
            t.inputs += 1
            t.commands += len(rs)
            verdict = classify(rs)
            if verdict == "traceback":
                t.tracebacks += 1
                for r in rs:
                    if r["status"] == "traceback":
                        signatures[f"{kind}: {r['signature']}"].append(f"{path.name} ({'; '.join(m.done)})")
            elif verdict == "hang":
                t.hangs += 1
                signatures[f"{kind}: hang"].append(f"{path.name} ({'; '.join(m.done)})")
            elif verdict == "accepted":
                t.accepted += 1
                if m.must_reject:
                    t.wrong += 1
                    wrong_examples.append(f"{kind} {path.name}: {m.must_reject} ({'; '.join(m.done)})")
            else:
                t.clean += 1
                t.named += verdict == "named"
                if verdict == "clean" and len(unnamed_examples) < 15:
                    lines = [ln for r in rs for ln in r.get("lines", []) if not NAMED.match(ln)]
                    unnamed_examples.append(f"{kind} {path.name}: {lines[:1]} ({'; '.join(m.done)})")
            if args.keep and verdict in ("traceback", "hang"):
                Path(args.keep).mkdir(parents=True, exist_ok=True)
                shutil.copy(path, Path(args.keep) / path.name)
    elapsed = time.monotonic() - t0
    print(f"fuzz: {args.inputs} mutated inputs, seed {args.seed}, {args.workers} workers, {elapsed:.0f} s")
    print("baseline (unmutated files, every command accepts): "
          + ", ".join(f"{kind} {base_ok[kind]}/{len(seeds[kind])}" for kind in KINDS))
    head = (f"{'kind':<13} {'inputs':>6} {'commands':>8} {'clean errors':>12} {'(named)':>8} {'accepted':>8} "
            f"{'wrong acc.':>10} {'tracebacks':>10} {'hangs':>6}")
    print(head)
    total = Tally()
    for kind, t in tallies.items():
        for f_ in total.__dataclass_fields__:
            setattr(total, f_, getattr(total, f_) + getattr(t, f_))
        print(f"{kind:<13} {t.inputs:>6} {t.commands:>8} {t.clean:>12} {t.named:>8} {t.accepted:>8} "
              f"{t.wrong:>10} {t.tracebacks:>10} {t.hangs:>6}")
    named_pct = 100.0 * total.named / max(1, total.clean)
    print(f"{'total':<13} {total.inputs:>6} {total.commands:>8} {total.clean:>12} {total.named:>8} "
          f"{total.accepted:>8} {total.wrong:>10} {total.tracebacks:>10} {total.hangs:>6}   "
          f"({named_pct:.1f} % of clean errors named)")
    for sig, examples in sorted(signatures.items(), key=lambda kv: -len(kv[1])):
        print(f"  {len(examples):>4} x {sig}   e.g. {examples[0]}")
    for line in wrong_examples[:15]:
        print(f"  wrong acceptance: {line}")
    for line in unnamed_examples:
        print(f"  unnamed error: {line}")
    return 1 if total.tracebacks or total.hangs else 0


if __name__ == "__main__":
    sys.exit(main())
