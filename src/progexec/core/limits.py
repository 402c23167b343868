"""Every bound progexec puts on its work, as one immutable value: :class:`Limits`.

The value in force is carried by a :class:`~contextvars.ContextVar` (:func:`current`), so a
library caller, a command line (``--limit NAME=VALUE``) and a worker thread each see exactly
the limits they were given, and nothing is set by module path. :func:`using` installs a value
for a block; :func:`set_limit` changes the process-wide default (what a fresh thread sees).

Work is bounded by construction: every bound but one is a count or a size checked *before* the
work it protects (program length, steps, literal length, exact bits, expanded tree size, ...),
so no answer depends on the machine's load or the calling thread. The exception is
``item_time_limit``, a wall-clock backstop: the runner sets a deadline (:func:`run_with_deadline`,
no signal, any thread) that every step of the interpreter, the oracles and the scorer checks
(:func:`check_deadline`); :func:`run_with_time_limit` adds, in the main thread, a ``SIGALRM`` timer
that also stops pure-Python work which never reaches a check (program equivalence uses it around
sympy). An item stopped by the clock is ``limit_exceeded`` naming the bound, never a wrong answer.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, fields, replace
from typing import Any, TypeVar

from .errors import OptionError

T = TypeVar("T")


def _bound(default: Any, doc: str) -> Any:
    return field(default=default, metadata={"doc": doc})


@dataclass(frozen=True, slots=True)
class Limits:
    """Every bound, by its public name (the ``--limit`` names); see docs/robustness.md for each effect."""

    item_time_limit: float = _bound(
        10.0, "wall-clock backstop in seconds per item (every command); 0 = no clock. An item it stops is "
              "limit_exceeded. The size bounds below keep real items far below it")
    max_program_chars: int = _bound(
        100_000, "longest program text parsed (FinQA and MathQA); longer text is limit_exceeded before parsing")
    max_steps: int = _bound(10_000, "most steps one program may have; more is limit_exceeded")
    max_literal_chars: int = _bound(400, "longest literal or table cell read as a number; longer is limit_exceeded")
    max_line_chars: int = _bound(
        5_000_000, "longest input record (a JSON Lines line, one element of a JSON list, or a JSON document read "
                   "whole, such as a {key: [records]} prediction file); a longer record is bad_input, a longer "
                   "document is refused")
    max_input_bytes: int = _bound(
        8 * 2**30, "most bytes read from one input after decompression (a gzip bomb is refused past it)")
    max_gzip_ratio: int = _bound(
        100, "most bytes of text a gzip input may expand to per compressed byte, once past gzip_ratio_after_bytes "
             "(real data: about 4); a higher ratio is refused before the work (a few MB cannot become minutes)")
    gzip_ratio_after_bytes: int = _bound(
        8 * 2**20, "decompressed bytes read before max_gzip_ratio is enforced (small files may compress better)")
    max_exact_bits: int = _bound(
        20_000, "largest numerator/denominator (bits) the exact oracle holds; beyond it, intervals")
    max_exact_work: int = _bound(
        2 * 10**9, "exact-oracle work budget per run (sum of squared result sizes in bits); beyond it, intervals")
    max_root_degree: int = _bound(64, "largest root degree tried for an exact rational power")
    max_interval_exponent: int = _bound(
        10**12, "largest |integer exponent| taken to an interval power; beyond it, undecided")
    interval_precisions: tuple[int, ...] = _bound(
        (128, 512, 2048), "interval precisions (bits) tried in turn; the last is the most the oracle spends")
    max_expanded_nodes: int = _bound(
        100_000, "largest expanded expression tree program equivalence builds (per side); "
                 "beyond it the pair is expression_too_large")
    max_symbolic_nodes: int = _bound(
        256, "most operations in an expression handed to sympy's simplify (per side); beyond it the pair is "
             "expression_too_large (real programs have a few dozen at most)")
    max_magnitude_bits: int = _bound(
        1_000_000, "a power whose result is beyond 2**±this (bits) is decided from its operands before computing "
                   "(overflow when huge, limit_exceeded when tiny), in the exact and interval oracles")
    max_factorial_arg: int = _bound(
        10_000, "largest MathQA permutation factorial (and whole-argument choose) computed; beyond it limit_exceeded")
    max_trax_int_bits: int = _bound(65_536, "largest integer intermediate under --semantics trax; larger is limit_exceeded")
    max_options_chars: int = _bound(4096, "longest MathQA options field parsed; longer gives no options (too_long)")
    max_sandbox_code_chars: int = _bound(1_000_000, "longest MathQA-Python snippet run in the sandbox")
    solution_cpu_seconds: float = _bound(
        3.0, "CPU seconds one program-of-thought solution may use in the sandbox (FinanceMath's 3 s alarm); "
             "past it the solution is time_limit")
    solution_wall_seconds: float = _bound(
        30.0, "wall-clock backstop per program-of-thought solution (a solution that sleeps); past it time_limit, "
              "flagged as a verdict the machine's load may decide")
    solution_alarm_seconds: float = _bound(
        3.0, "FinanceMath's signal.alarm(3) for a solution that sleeps: its CPU seconds plus the seconds it asks "
             "time.sleep for may not pass this; a sleep that would is time_limit at once (counted, not timed: the "
             "CPU limit alone lets a sleeping solution finish); 0 = none")
    solution_memory_bytes: int = _bound(
        2 * 1024 ** 3, "address space of one program-of-thought solution, the preloaded libraries included")
    max_completion_chars: int = _bound(100_000, "longest completion the reward reads; longer is too_large, not read")
    max_reward_program_chars: int = _bound(4_000, "longest program the reward extracts and runs; longer is too_large")
    max_reward_steps: int = _bound(200, "most steps of a program the reward runs; more is too_large, never parsed")
    example_chars: int = _bound(600, "characters of a completion quoted in an example (its length is given)")
    huge_completion_chars: int = _bound(150_000, "the length of a 'huge' completion (a runaway generation)")
    isolation_probe_seconds: float = _bound(20.0, "seconds the one-time isolation probe may take before isolation counts as unavailable")
    max_answer_line_bytes: int = _bound(1 << 20, "one answer line (a batch's rewards and descriptions) from the child")
    max_reward_deaths: int = _bound(20, "times the function's process may die before the remaining cases are not run")
    max_reward_hangs: int = _bound(3, "hangs (killed calls) after which the remaining cases are not run")
    max_serve_workers: int = _bound(64, "most worker processes --workers starts")
    max_suite_cases: int = _bound(1_000_000, "cases one suite may hold (checked before any is written)")
    max_suite_draws: int = _bound(64, "golds tried for one case before the form's applicable golds are scanned in order")
    max_table_numbers: int = _bound(40, "table numbers a 'table_numbers' completion lists (a table's first ones)")
    serve_inline_body_bytes: int = _bound(8192, "a request body this small is worked on the event loop itself (a hop to a thread would cost more)")
    serve_keep_alive_seconds: int = _bound(5, "an idle keep-alive connection is closed after this long without a new request")
    serve_listen_backlog: int = _bound(2048, "connections the kernel queues before the server accepts them (capped by somaxconn)")
    serve_startup_seconds: float = _bound(5.0, "a worker process that exits sooner after its start stops the server (no restart loop)")
    solution_answer_margin_seconds: float = _bound(5.0, "seconds past a solution's own wall budget before its worker counts as stalled and is killed")
    solution_pool_close_seconds: float = _bound(5.0, "how long closing the pool waits for idle workers to exit before killing them")
    solution_worker_ready_seconds: float = _bound(120.0, "a worker that has not imported its libraries within this many seconds is a sandbox_error")
    max_answer_int_digits: int = _bound(400, "an integer in an answer with more digits is not_float, never converted")
    port_exit_grace_seconds: float = _bound(0.5, "how long what a port started may run on after it exited (then it is killed: no_exit)")
    port_start_seconds: float = _bound(60.0, "how long a --python child may take to import its function (its handshake)")
    reaper_grace_seconds: float = _bound(5.0, "how long the reaper may take to kill a stopped port's tree before its group is killed")
    stderr_head_bytes: int = _bound(2000, "first bytes of a child's stderr kept to quote (the start-up error, the first trace)")
    stderr_max_bytes: int = _bound(64 << 20, "stderr bytes read from one child before the reader stops reading it")
    stderr_tail_bytes: int = _bound(2000, "last bytes of a child's stderr kept to quote (the error line that ended it)")
    max_answer_spans: int = _bound(
        12, "most spans of one answer aligned exactly by a span F1 (MultiHiertt, DROP-style); more is refused")
    max_extracted_chars: int = _bound(500, "the extracted text kept in a reward result; longer text is cut and '...' appended")
    max_program_candidates: int = _bound(32, "most program candidates read from one completion (answer spans: all)")
    max_bare_line_chars: int = _bound(80, "longest last line of a completion read as a bare answer")
    max_gold_json_chars: int = _bound(4_000_000, "longest gold record given as JSON text; longer is bad_gold")
    max_number_chars: int = _bound(64, "longest number the reward reads; a longer one is unreadable, never parsed")
    max_counted_numbers: int = _bound(100, "numbers counted in a refused list (the reason says 'more than N' beyond)")
    max_trailing_tokens: int = _bound(16, "special tokens stripped from the end of a remote response, at most")
    max_span_chars: int = _bound(2_000, "longest answer span (a marked line, a box) read; longer is refused unread")
    max_answer_exponent: int = _bound(308, "largest exponent of a power or x10^k in an answer; larger is refused, never computed")
    max_unitxt_exponent: int = _bound(1000, "largest exponent a unitxt fallback expression evaluates; larger is not evaluated")
    max_choose_log2: float = _bound(1030.0, "largest log2 of choose(n, k) computed; larger is refused at once")
    max_request_bytes: int = _bound(16 * 1024 * 1024, "largest request body progexec serve reads; larger is 413")
    max_request_items: int = _bound(4096, "most samples in one progexec serve request; more is 413")
    max_request_values: int = _bound(
        500_000, "most JSON values (strings, numbers, lists, objects) in one progexec serve request body, counted "
                 "before it is decoded; more is 400 (a 16 MiB body of [],[],... is never built)")
    serve_header_bytes: int = _bound(
        16 * 1024, "progexec serve: longest request line and headers of one request; longer is 400 and the "
                   "connection is closed (also when they arrive in one packet, which h11 alone accepts)")
    serve_request_seconds: float = _bound(
        30.0, "progexec serve: a request's headers and body must arrive within this many seconds of its first "
              "byte (a new connection must start one within it too); past it 408 and the connection is closed; 0 = none")
    serve_write_seconds: float = _bound(
        30.0, "progexec serve: a response the client leaves unread this many seconds after the server first has "
              "to wait for it is dropped with its connection; 0 = none")
    serve_active_requests: int = _bound(
        32, "progexec serve: requests worked on at once per worker process (admitted only once their body is "
            "read)")
    serve_queued_requests: int = _bound(
        256, "progexec serve: read requests waiting for a working slot per worker process; more get 503 at once")
    solution_lanes: int = _bound(
        2, "Python-solution reward calls run at once per process (progexec serve: per worker process, in as many "
           "threads off the event loop), each in a warm sandbox pool of its own; more wait for a lane")
    serve_solution_request_seconds: float = _bound(
        120.0, "progexec serve: the sandbox time of one request; a Python-solution item not yet started this many "
               "seconds after the request's sandbox work began is time_limit without running, so no request holds "
               "its lane longer (plus one solution's own bound)")
    max_compiled_programs: int = _bound(
        65_536, "programs kept compiled (by text or token list) per process for the interpreter's fast path; the "
                "oldest is dropped first; 0 = compile every time. Never changes an answer")
    max_compiled_bytes: int = _bound(
        64 * 2**20, "estimated bytes of the compiled programs kept per process (about 500 per step plus the text; "
                    "see docs/robustness.md); the oldest is dropped first; 0 = compile every time. Never changes an "
                    "answer")
    max_memo_bytes: int = _bound(
        16 * 2**20, "estimated bytes of each memo table per process (literal values, parsed steps, canonical "
                    "arguments, simplified expressions), by its keys' length; the oldest is dropped first. Never "
                    "changes an answer")
    max_cached_gold_bytes: int = _bound(
        64 * 2**20, "estimated bytes of each gold cache per process (parsed gold records of reward and serve, by "
                    "text length and table cells; gold solutions' values, by code length); the oldest is dropped "
                    "first. Never changes an answer")
    parallel_chunk_size: int = _bound(1000, "items per task of exec, score, report and reward when --chunk-size is not given")
    chunks_in_flight_per_job: int = _bound(2, "chunks in flight per job (--jobs): memory stays bounded whatever the input's length")
    max_jobs: int = _bound(1024, "most worker processes --jobs may ask for")
    reward_chunk_lines: int = _bound(1000, "input lines progexec reward reads and judges as one chunk (one task under --jobs)")
    reward_ray_chunk_lines: int = _bound(5000, "input lines progexec reward sends as one task under --engine ray when --chunk-size is not given: a Ray task costs milliseconds, so a task is tenths of a second of work")
    async_answers_per_slice: int = _bound(64, "answers of the async rewards' scoring thread an event loop settles in one callback (at least one); the rest wait for its next turn, so its other tasks run between slices of a gathered batch. Never changes an answer")
    judged_records: int = _bound(100, "first records of an input judged before anything is written: more than half unusable refuses the input")
    max_fast_cells: int = _bound(100_000, "most table cells the interpreter's fast path reads for one item; a larger table takes the general path. Never changes an answer")
    max_status_bytes: int = _bound(65536, "most bytes read of the reaper's status line about a stopped port")
    pipe_read_bytes: int = _bound(65536, "bytes read from a child's pipe at a time")
    port_chunk_cases: int = _bound(1000, "cases sent to a checked port in one request when --chunk is not given")
    port_timeout_seconds: float = _bound(20.0, "seconds a checked port may take for one request when --timeout is not given; past it the port is stopped")
    port_stall_seconds: float = _bound(1.0, "seconds without a byte from a checked port after which it counts as stalled")
    max_port_notes: int = _bound(20, "notes about a port's misbehaviour kept in a report (the count is always exact)")
    port_request_quote_chars: int = _bound(300, "characters of a request quoted when a port fails on it")
    evaluator_chunk_cases: int = _bound(2000, "check-evaluator: cases per request to the port when --chunk is not given")
    evaluator_answer_line_chars: int = _bound(4096, "check-evaluator: longest answer line read from the port; longer is a bad answer")
    evaluator_examples_per_class: int = _bound(3, "check-evaluator: example cases shown per divergence class")
    evaluator_generated_cases: int = _bound(400, "check-evaluator: generated cases added to the dataset's when --generated is not given")
    reward_probe_cases: int = _bound(240, "check-reward: cases sent across threads and processes by the probes when --probe-cases is not given")
    reward_check_chunk: int = _bound(512, "check-reward: cases per request to the reward function")
    reward_check_batch: int = _bound(32, "check-reward: completions per call of a batched reward function when --batch is not given")
    reward_call_timeout_seconds: float = _bound(10.0, "check-reward: seconds one call may take when --timeout is not given; past it the call is a hang")
    reward_suite_cases: int = _bound(2000, "check-reward: cases in the suite when --cases is not given")
    reward_suite_group: int = _bound(4, "check-reward: forms written for one drawn gold (the drawn form and up to this many minus one others)")
    rounder_cases: int = _bound(100_000, "check-rounder: cases generated when --cases is not given")
    rounder_block_cases: int = _bound(50_000, "check-rounder: cases generated and checked as one block")
    rounder_oracle_sample: int = _bound(97, "check-rounder: one case in this many is also checked against the exact Fraction oracle")
    rounder_answer_line_chars: int = _bound(512, "check-rounder: longest answer line read from an external rounder")
    max_json_stack: int = _bound(1 << 20, "openers of one malformed record tracked one by one when a JSON list is resynchronised; past it only a count is kept")
    json_element_tries: int = _bound(3, "candidate element ends tried per list element before the standard library's decoder decides")
    snippet_message_chars: int = _bound(500, "characters of a MathQA-Python snippet's error message kept in its result")
    solution_message_chars: int = _bound(300, "characters of a program-of-thought solution's error message kept in its result")
    solution_int_digits: int = _bound(4000, "an integer a solution returns with more digits is not a number, never converted")
    reward_check_budget_seconds: float = _bound(1800.0, "check-reward: seconds the whole check may take when --budget is not given")
    gold_cache_entries: int = _bound(4096, "gold records kept decoded per process by the reward batch path (the oldest dropped first; a JSON line's gold is also found by its text as written, an entry of its own). Never changes a reward")
    gold_cache_max_cells: int = _bound(10_000, "a gold record whose table has more cells is not cached. Never changes a reward")
    max_error_chars: int = _bound(1000, "progexec serve: characters of an error message put in a response")
    read_chunk_chars: int = _bound(1 << 20, "characters read from an input at a time")
    score_markdown_examples: int = _bound(10, "score: examples listed per disagreement in the Markdown report")
    score_html_examples: int = _bound(25, "score: examples listed per disagreement in the HTML report")
    report_exact_digits: int = _bound(40, "report: significant digits shown of an exact value in the HTML report")

    snippet_wall_seconds: float = _bound(10.0, "score-python (MathQA-Python): wall-clock seconds one snippet may take, interpreter start-up included, when --timeout is not given; its CPU limit is this rounded up")
    snippet_memory_bytes: int = _bound(1024 ** 3, "score-python (MathQA-Python): address space of one snippet when --memory-mb is not given")
    snippet_output_chars: int = _bound(1_000_000, "score-python (MathQA-Python): characters a snippet may print; past it the snippet is output_limit")
    snippet_result_bytes: int = _bound(64 * 1024, "score-python (MathQA-Python): bytes of a snippet's result read from its process; more is output_limit")
    reaper_max_sweeps: int = _bound(1_000, "kill rounds the reaper runs over a stopped port's leftovers before giving up on a tree that keeps forking")
    reaper_max_named: int = _bound(20, "leftover processes of a port named in the reaper's status line (the count is always exact)")
    solution_result_bytes: int = _bound(64 * 1024, "bytes of one program-of-thought solution's own report read from its process; more is cut")
    solution_repr_chars: int = _bound(200, "characters of the repr of a solution's returned value kept in its result")
    reward_probe_threads: int = _bound(4, "check-reward: threads the thread probe calls the reward function from")
    reward_probe_processes: int = _bound(2, "check-reward: processes the process-pool probe calls the reward function from")
    reward_answer_chars: int = _bound(200, "check-reward: characters of a returned value's description or an exception message kept")
    pychild_flush_seconds: float = _bound(0.005, "check-rounder/check-evaluator --python: seconds of work after which the child writes its answers out even if more input waits")
    trailing_token_search_chars: int = _bound(48, "final characters of a remote response searched for a special token to strip (the search is bounded)")
    number_context_chars: int = _bound(16, "characters either side of a number searched for its sign, parentheses and scale word")
    max_prose_words: int = _bound(6, "most other words beside the one number of an answer read as a number; more is prose, not an answer")
    max_list_words: int = _bound(2, "most other words beside several values for them to be read as a list or a disjunction")
    rounder_max_digits: int = _bound(22, "check-rounder: largest ndigits --digits may ask for")
    progress_refresh_seconds: float = _bound(0.2, "seconds between two redraws of a command's progress line on a terminal (a final line is always drawn)")
    reward_leak_chars: int = _bound(160, "check-reward: characters of the first leak (a process or thread left running) quoted in the verdict line")
    reward_named_threads: int = _bound(3, "check-reward: threads left running by the reward function that a report names (the count is always exact)")
    score_page_columns: int = _bound(8, "score on a dataset with its own scorer: fields of a question record shown as columns of score.md and score.html (every field stays in items.jsonl)")
    official_pot_timeout_seconds: float = _bound(10.0, "FinanceReasoning: seconds (wall clock and CPU) one program-of-thought solution may take, as the official config's evaluation.timeout_duration; --timeout overrides")
    description_payload_bytes: int = _bound(1500, "FinanceReasoning: bytes of the sandbox's description of a returned value; a longer description is cut to its kind")
    description_text_chars: int = _bound(1000, "FinanceReasoning: characters of a returned string the sandbox describes (a longer one is normalized inside the sandbox)")
    description_int_digits: int = _bound(400, "FinanceReasoning: digits of a returned integer, fraction or decimal the sandbox describes exactly; more is described by its kind")

    def __post_init__(self) -> None:
        for item in fields(self):
            value = getattr(self, item.name)
            if item.name == "interval_precisions":
                if not value or any(not isinstance(bits, int) or bits < 53 for bits in value):
                    raise OptionError("interval_precisions needs at least one precision of 53 bits or more")
            elif isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
                raise OptionError(f"limit {item.name} must be a non-negative number, not {value!r}")

    def with_(self, **changes: Any) -> Limits:
        """A copy with some bounds changed (checked like the constructor)."""
        for name in changes:
            _lookup(name)
        return replace(self, **changes)

    def record(self) -> dict[str, Any]:
        """Every bound by name, JSON-ready (tuples as lists)."""
        return {item.name: list(value) if isinstance(value := getattr(self, item.name), tuple) else value
                for item in fields(self)}

    def changed(self) -> dict[str, Any]:
        """The bounds that differ from this version's defaults, JSON-ready: what run metadata records (the
        defaults are the version's, so adding a bound changes no output of a run that keeps the defaults)."""
        defaults = DEFAULT_LIMITS.record()
        return {name: value for name, value in self.record().items() if value != defaults[name]}


DEFAULT_LIMITS = Limits()
"""The bounds progexec ships with."""

LIMIT_DOCS: dict[str, str] = {item.name: str(item.metadata["doc"]) for item in fields(Limits)}
"""What each bound does, by name (the one registry: ``--limit`` help and docs read it)."""

_process_limits = DEFAULT_LIMITS
_CURRENT: ContextVar[Limits | None] = ContextVar("progexec_limits", default=None)
_DEADLINE: ContextVar[float | None] = ContextVar("progexec_deadline", default=None)


def current() -> Limits:
    """The limits in force here: those of the innermost :func:`using`, else the process default."""
    return _CURRENT.get() or _process_limits


@contextmanager
def using(limits: Limits | None) -> Iterator[Limits]:
    """Run a block under ``limits`` (None: the limits already in force); restored afterwards."""
    chosen = current() if limits is None else limits
    token = _CURRENT.set(chosen)
    try:
        yield chosen
    finally:
        _CURRENT.reset(token)


def get_limit(name: str) -> Any:
    """The value of a named limit in force here."""
    _lookup(name)
    return getattr(current(), name)


def set_limit(name: str, value: Any) -> Any:
    """Change the process-wide default of a named limit and return its previous value."""
    global _process_limits
    _lookup(name)
    previous = getattr(_process_limits, name)
    _process_limits = _process_limits.with_(**{name: value})
    return previous


def parse_assignment(text: str) -> tuple[str, Any]:
    """``NAME=VALUE`` (as given to ``--limit``) -> (name, typed value); raise OptionError when malformed."""
    name, equals, raw = text.partition("=")
    name = name.strip().replace("-", "_")
    if not equals:
        raise OptionError(f"--limit expects NAME=VALUE, got {text!r}")
    kind = type(getattr(DEFAULT_LIMITS, _lookup(name)))
    try:
        if kind is tuple:
            value: Any = tuple(int(part) for part in raw.split(",") if part.strip())
            Limits(interval_precisions=value)
        else:
            value = kind(raw)
            if value < 0:
                raise ValueError("must not be negative")
    except (ValueError, OptionError) as error:
        raise OptionError(f"bad value {raw!r} for limit {name}: {error}") from None
    return name, value


def from_assignments(assignments: list[str] | None, base: Limits | None = None) -> Limits:
    """The limits of ``--limit NAME=VALUE`` options over ``base`` (default: those in force)."""
    changes = dict(parse_assignment(text) for text in assignments or [])
    return (base or current()).with_(**changes)


def _lookup(name: str) -> str:
    if name not in LIMIT_DOCS:
        close = [known for known in LIMIT_DOCS if name and (name in known or known in name)]
        hint = f" (did you mean {close[0]}?)" if close else ""
        raise OptionError(f"unknown limit {name!r}{hint}; known limits: {', '.join(LIMIT_DOCS)}")
    return name


class ItemTimeLimitExceeded(BaseException):
    """Raised inside an item's work when its wall-clock backstop expires.

    A BaseException, like KeyboardInterrupt: the official evaluator's model and the libraries we
    call catch ``Exception`` broadly, and a swallowed expiry would leave the item unbounded.
    """

    def __init__(self, seconds: float) -> None:
        super().__init__(f"the item took longer than the per-item time limit of {seconds:g} s (item_time_limit)")
        self.seconds = seconds


def check_deadline() -> None:
    """Raise :class:`ItemTimeLimitExceeded` when the current item's backstop has passed (any thread)."""
    deadline = _DEADLINE.get()
    if deadline is not None and time.monotonic() > deadline:
        raise ItemTimeLimitExceeded(current().item_time_limit)


def run_with_deadline(work: Callable[[], T], seconds: float | None = None) -> T:
    """Run ``work()`` with a deadline seen only by :func:`check_deadline` (no signal, any thread, a few
    hundred nanoseconds per call): the runner's backstop, since every loop of the interpreter, the
    oracles and the scorer checks it and every single step is bounded by size."""
    limit = current().item_time_limit if seconds is None else seconds
    if not limit or limit <= 0:
        return work()
    token = _DEADLINE.set(time.monotonic() + limit)
    try:
        return work()
    finally:
        _DEADLINE.reset(token)


def _signal_clock_available() -> bool:
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


def run_with_time_limit(work: Callable[[], T], seconds: float | None = None) -> T:
    """Run ``work()``; raise :class:`ItemTimeLimitExceeded` if it takes longer than ``seconds``.

    ``seconds`` defaults to the ``item_time_limit`` in force; 0 runs ``work`` without a clock. The
    deadline is seen by :func:`check_deadline` in every thread; in the main thread a one-shot
    ``SIGALRM`` also interrupts code that never checks. The caller's handler and timer are restored.
    """
    limit = current().item_time_limit if seconds is None else seconds
    if not limit or limit <= 0:
        return work()
    token = _DEADLINE.set(time.monotonic() + limit)
    try:
        if not _signal_clock_available():
            return work()
        return _with_alarm(work, limit)
    finally:
        _DEADLINE.reset(token)


def _with_alarm(work: Callable[[], T], limit: float) -> T:
    active = [True]  # the handler raises only while work() runs, never during the clean-up below

    def expire(signum: int, frame: Any) -> None:
        if active[0]:
            raise ItemTimeLimitExceeded(limit)

    previous_handler = signal.signal(signal.SIGALRM, expire)
    previous_delay, previous_interval = signal.setitimer(signal.ITIMER_REAL, limit)
    try:
        result = work()
        active[0] = False
        return result
    finally:
        active[0] = False
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous_handler)
        if previous_delay:
            signal.setitimer(signal.ITIMER_REAL, previous_delay, previous_interval)


def limit_help() -> str:
    """The ``--limit`` help text: every name (effects in docs/robustness.md)."""
    return ("set a bound, e.g. item_time_limit=2 or max_steps=500 (repeatable; see docs/robustness.md): "
            + ", ".join(LIMIT_DOCS))


__all__ = ["Limits", "DEFAULT_LIMITS", "LIMIT_DOCS", "ItemTimeLimitExceeded", "current", "using",
           "get_limit", "set_limit", "parse_assignment", "from_assignments", "check_deadline",
           "run_with_time_limit", "run_with_deadline", "limit_help"]
