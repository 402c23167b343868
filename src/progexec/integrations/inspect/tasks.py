"""inspect_ai ``@task`` definitions and ``@scorer`` s for the shipped progexec tasks (imports are absolute:
``inspect eval`` loads this file by path).

Run ``inspect eval <this file>@progexec_finqa_program --model ...`` (``-T source=FILE`` for a dataset
file, ``-T limit=N``, ``-T completions=FILE`` to score saved completions instead of generating), or
build ``progexec_finqa_program()`` and pass it to ``inspect_ai.eval``. Each
scorer judges ``state.output.completion`` against the sample's document (its metadata) with
:mod:`progexec.integrations.judge`, so it gives what ``progexec score`` / ``reward`` / ``score-python``
give on the same completion.
"""

from __future__ import annotations

import asyncio

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessageAssistant, ModelOutput
from inspect_ai.scorer import Score, Scorer, Target, accuracy, mean, scorer, stderr
from inspect_ai.solver import Generate, Solver, TaskState, generate, solver

from progexec.readers import read_records
from progexec.integrations.docs import TASKS, TaskKind, task_docs
from progexec.integrations.judge import (EXECUTION_ACCURACY, NUMERIC_ACCURACY, PROGRAM_ACCURACY, PYTHON_ACCURACY, Judgement,
                     judge)
from progexec.core.plural import plural
from progexec.core.errors import InputError


def dataset(name: str, source: str | None = None, limit: int | None = None) -> MemoryDataset:
    """The task's documents as inspect samples: the prompt as input, the gold text as target, and as
    metadata the task's name and the document (which the scorer judges against)."""
    samples = [Sample(input=doc["prompt"], target=doc["target"], id=doc["id"], metadata={"task": name, "doc": doc})
               for doc in task_docs(name, source, limit)]
    return MemoryDataset(samples, name=name)


async def _judge(state: TaskState) -> Judgement:
    name = state.metadata["task"]
    # the judges are synchronous (MathQA-Python runs a sandboxed process): keep them off the event loop
    return await asyncio.to_thread(judge, name, state.metadata["doc"], state.output.completion)


@scorer(metrics={EXECUTION_ACCURACY: [accuracy(), stderr()], PROGRAM_ACCURACY: [accuracy(), stderr()]})
def program_scorer() -> Scorer:
    """Official FinQA / ConvFinQA execution accuracy and program accuracy of the completion as a program."""
    async def score(state: TaskState, target: Target) -> Score:
        result = await _judge(state)
        return Score(value=dict(result.metrics), answer=state.output.completion.strip(), explanation=result.reason,
                     metadata={"status": result.status})
    return score


@scorer(metrics=[accuracy(), stderr()], name=NUMERIC_ACCURACY)
def answer_scorer() -> Scorer:
    """The reward core's numeric verdict on the completion's final answer."""
    async def score(state: TaskState, target: Target) -> Score:
        result = await _judge(state)
        return Score(value=result.metrics[NUMERIC_ACCURACY], explanation=result.reason,
                     metadata={"status": result.status})
    return score


@scorer(metrics=[accuracy(), stderr()], name=PYTHON_ACCURACY)
def mathqa_python_scorer() -> Scorer:
    """The completion run as a MathQA-Python snippet in the score-python sandbox, its ``answer`` compared."""
    async def score(state: TaskState, target: Target) -> Score:
        result = await _judge(state)
        return Score(value=result.metrics[PYTHON_ACCURACY], explanation=result.reason,
                     metadata={"status": result.status})
    return score


def read_completions(path: str) -> dict[str, str]:
    """Saved completions by sample id from JSON Lines or a JSON list of ``{"id", "completion"}`` records."""
    completions: dict[str, str] = {}
    for record in read_records(path):
        value = record.value
        if record.error is not None or not isinstance(value, dict) or not isinstance(value.get("completion"), str) \
                or not isinstance(value.get("id"), (str, int)):
            raise InputError(f"{path}: {record.where} is not an {{\"id\", \"completion\"}} record"
                            f"{'' if record.error is None else ' (' + record.error + ')'}")
        if str(value["id"]) in completions:
            raise InputError(f"{path}: id {value['id']!r} occurs twice")
        completions[str(value["id"])] = value["completion"]
    return completions


@solver
def replay(completions: dict[str, str]) -> Solver:
    """Answer each sample with its saved completion instead of calling the model (scores saved outputs offline)."""
    async def solve(state: TaskState, generate: Generate) -> TaskState:
        text = completions[str(state.sample_id)]
        state.messages.append(ChatMessageAssistant(content=text, model="replay"))
        state.output = ModelOutput.from_content(model="replay", content=text)
        return state
    return solve


@scorer(metrics={"tatqa_em": [accuracy(), stderr()], "tatqa_f1": [mean(), stderr()]})
def tatqa_scorer() -> Scorer:
    """TAT-QA's official exact match and F1 of the completion's stated answer and scale."""
    async def score(state: TaskState, target: Target) -> Score:
        result = await _judge(state)
        return Score(value=dict(result.metrics), explanation=result.reason, metadata={"status": result.status})
    return score


SCORERS = {TaskKind.PROGRAM: program_scorer, TaskKind.ANSWER: answer_scorer,
           TaskKind.MATHQA_PYTHON: mathqa_python_scorer, TaskKind.TATQA_ANSWER: tatqa_scorer}


def _task(name: str, source: str | None, limit: int | None, completions: str | None) -> Task:
    samples = dataset(name, source, limit)
    plan: Solver = generate()
    if completions is not None:
        saved = read_completions(completions)
        missing = [str(sample.id) for sample in samples if str(sample.id) not in saved]
        if missing:
            raise InputError(f"{completions}: no completion for {len(missing)} of {plural(len(samples), 'sample')} "
                            f"(first: {missing[0]!r})")
        plan = replay(saved)
    return Task(dataset=samples, solver=plan, scorer=SCORERS[TASKS[name].kind](), name=name)


@task
def progexec_finqa_program(source: str | None = None, limit: int | None = None,
                           completions: str | None = None) -> Task:
    """FinQA program generation (``source``: an embedded corpus name or a FinQA dataset file)."""
    return _task("progexec_finqa_program", source, limit, completions)


@task
def progexec_convfinqa_program(source: str | None = None, limit: int | None = None,
                               completions: str | None = None) -> Task:
    """ConvFinQA program generation, one sample per turn."""
    return _task("progexec_convfinqa_program", source, limit, completions)


@task
def progexec_finqa_answer(source: str | None = None, limit: int | None = None,
                          completions: str | None = None) -> Task:
    """FinQA answer generation, scored by the numeric policy."""
    return _task("progexec_finqa_answer", source, limit, completions)


@task
def progexec_convfinqa_answer(source: str | None = None, limit: int | None = None,
                              completions: str | None = None) -> Task:
    """ConvFinQA answer generation, scored by the numeric policy."""
    return _task("progexec_convfinqa_answer", source, limit, completions)


@task
def progexec_mathqa_python(source: str | None = None, limit: int | None = None,
                           completions: str | None = None) -> Task:
    """MathQA-Python code generation (``source``: ``mathqa:test``, ``mathqa:dev``, ``mathqa:challenge_test``)."""
    return _task("progexec_mathqa_python", source, limit, completions)


@task
def progexec_tatqa_answer(source: str | None = None, limit: int | None = None,
                          completions: str | None = None) -> Task:
    """TAT-QA answer generation (``source``: tatqa:test, tatqa:dev or a TAT-QA dataset file), scored by the
    official TAT-QA exact match and F1."""
    return _task("progexec_tatqa_answer", source, limit, completions)


__all__ = ["dataset", "read_completions", "replay", "program_scorer", "answer_scorer", "mathqa_python_scorer", "progexec_finqa_program",
           "progexec_convfinqa_program", "progexec_finqa_answer", "progexec_convfinqa_answer",
           "progexec_mathqa_python", "progexec_tatqa_answer", "tatqa_scorer"]
