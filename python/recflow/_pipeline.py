"""recflow.run and recflow.Pipeline: YAML pipelines, and pipelines built in Python with Python functions over batches,
run by the native runner (the one `recflow run` uses)."""
import dataclasses
import functools
import json
import os

from recflow import _recflow


@dataclasses.dataclass
class RunMetrics:
    """What a run did: the numbers ``recflow run`` prints and writes with ``--metrics``.

    ``steps``: step name → {"kind", "stage", "rows_in", "rows_out", "batches", "failed_rows",
    "skipped_rows", "dead_letters", "busy_seconds"}, in pipeline order; ``stages``: one dict per
    stage {"stage", "wall_seconds", "records", "skipped_by_reader", "input_bytes", "units"};
    ``writes``: write step → {"records", "files", "partitions", "raw_bytes", "bytes_written" (on disk)}, named as
    ``recflow convert --json`` and recflow.write name them;
    ``seconds``: the whole call, loading included."""

    name: str
    steps: dict
    stages: list
    writes: dict
    seconds: float


def _metrics(native):
    """RunMetrics of the dict run_pipeline returns."""
    counters = json.loads(native["metrics"])
    steps = {}
    for step in counters["steps"]:
        step = dict(step)
        steps[step.pop("name")] = step
    writes = {}
    for write in native["writes"]:
        write = dict(write)
        writes[write.pop("step")] = write
    return RunMetrics(name=native["name"], steps=steps, stages=counters["stages"], writes=writes,
                      seconds=native["seconds"])


def _text(value):
    """A parameter's text: booleans as true/false, paths as paths."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return os.fspath(value) if isinstance(value, os.PathLike) else str(value)


def run(pipeline, params=None, threads=0):
    """Runs the YAML pipeline file ``pipeline`` as ``recflow run`` does, ``params`` overriding its
    parameters as ``--set KEY=VALUE`` does, on ``threads`` engine threads (0: every core), with the
    GIL released. Returns its RunMetrics. Raises recflow.Error naming the step, file, record and
    offset when it fails (its outputs left as they were), KeyboardInterrupt on Ctrl-C (the run
    stopped, nothing of it left)."""
    overrides = [(str(key), _text(value)) for key, value in (params or {}).items()]
    return _metrics(_recflow.run_pipeline(os.fspath(pipeline), "", "", overrides, [], int(threads)))


@functools.lru_cache(maxsize=None)
def _step_types():
    """The built-in steps by name: (summary, shorthand, min_inputs, max_inputs)."""
    return {name: tuple(rest) for name, *rest in _recflow.step_types()}


class Step:
    """A step's output in a Pipeline: call any step on it (``.map(fn)``, ``.to_example(...)``,
    ``.write(...)``, every step ``recflow steps`` lists) to add a step reading it."""

    __slots__ = ("pipeline", "name")

    def __init__(self, pipeline, name):
        self.pipeline = pipeline
        self.name = name

    def map(self, fn, schema=None, name=None, **options):
        """Adds a Python map over this step's batches (Pipeline.map)."""
        return self.pipeline.map(fn, schema=schema, name=name, input=self, **options)

    def filter(self, fn, name=None, **options):
        """Adds a Python filter (or, given an expression, the built-in filter step) reading this step."""
        return self.pipeline.filter(fn, name=name, input=self, **options)

    def flat_map(self, fn, schema=None, name=None, **options):
        """Adds a Python flat_map over this step's batches (Pipeline.flat_map)."""
        return self.pipeline.flat_map(fn, schema=schema, name=name, input=self, **options)

    def __getattr__(self, op):
        if op not in _step_types():
            raise AttributeError(f"no step '{op}' (steps: {', '.join(_step_types())})")
        return functools.partial(self.pipeline.step, op, input=self)

    def __repr__(self):
        return f"recflow.Step({self.name!r})"


class Pipeline:
    """A pipeline built step by step, as its YAML would list them: ``p.read(path).map(fn).write(out)``.
    Every built-in step is a method (``p.step(op, ...)`` is the generic form); ``map``, ``filter``
    and ``flat_map`` take Python functions over batches. Nothing runs before ``run()``."""

    def __init__(self, name="pipeline"):
        self.name = name
        self._steps = []
        self._functions = []
        self._names = set()

    def _free(self, base):
        """``base``, or ``base_2``, ``base_3``... whichever no step has (as YAML names unnamed steps)."""
        name, n = base, 2
        while name in self._names:
            name, n = f"{base}_{n}", n + 1
        return name

    def step(self, op, *value, input=None, name=None, side_inputs=None, on_error=None, dead_letter=None, **args):
        """Adds the step ``op`` with the arguments its YAML takes (``args``; one positional value
        stands for its shorthand argument: ``p.select(["a", "b"])``, ``p.write(path, format=...)``),
        reading ``input`` (a Step or a list of them; the step added last when None), and returns
        its Step. ``side_inputs``
        ({name: Step}), ``on_error`` ("fail", "skip", "dead_letter") and ``dead_letter`` (a path)
        as in YAML. Relative paths resolve against the current directory when the pipeline runs."""
        if op not in _step_types() and not op.startswith("py_"):
            raise ValueError(f"no step '{op}' (steps: {', '.join(_step_types())})")
        shorthand = _step_types()[op][1] if op in _step_types() else ""
        if len(value) > 1 or (value and not shorthand):
            takes = f"one positional value, its {shorthand}" if shorthand else "no positional values"
            raise TypeError(f"step '{op}' takes {takes}")
        if value:
            args = {shorthand: value[0], **args}
        name = self._free(op) if name is None else name
        if name in self._names:
            raise ValueError(f"another step is already named {name!r}")
        entry = {op: args, "name": name}
        if input is not None:
            entry["input"] = [s.name for s in input] if isinstance(input, (list, tuple)) else input.name
        if side_inputs:
            entry["side_inputs"] = {key: s.name for key, s in side_inputs.items()}
        if on_error is not None:
            entry["on_error"] = on_error
        if dead_letter is not None:
            entry["dead_letter"] = os.fspath(dead_letter)
        self._steps.append(entry)
        self._names.add(name)
        return Step(self, name)

    def _python_step(self, kind, fn, schema, name=None, **options):
        if not callable(fn):
            raise TypeError(f"{kind} takes a function over batches, not {type(fn).__name__}")
        args = {"fn": len(self._functions), "label": getattr(fn, "__qualname__", repr(fn))}
        if schema:
            args["schema"] = {str(column): str(type_name) for column, type_name in schema.items()}
        step = self.step("py_" + kind, name=name or self._free(kind), **options, **args)
        self._functions.append(fn)
        return step

    def map(self, fn, schema=None, name=None, **options):
        """Adds ``fn(batch) -> batch``: ``batch`` a dict {column: NumPy value} as Dataset.batches
        gives it (fixed-width columns read-only views on the Arrow buffers, ListColumns, object
        arrays of str/bytes, masked arrays for nulls); the result a dict of columns with one row
        per input row (arrays of a column's own dtype are taken without a copy). The output
        columns and types are those of ``fn`` on an empty batch, unless ``schema``
        ({column: type name, e.g. "list<float32>"}) names them. ``options`` as for step()."""
        return self._python_step("map", fn, schema, name=name, **options)

    def filter(self, fn, name=None, **options):
        """Adds ``fn(batch) -> mask``: a boolean array of one entry per row, True for the rows to
        keep. Given a string instead, adds the built-in ``filter`` step with that expression."""
        if isinstance(fn, str):
            return self.step("filter", fn, name=name, **options)
        return self._python_step("filter", fn, None, name=name, **options)

    def flat_map(self, fn, schema=None, name=None, **options):
        """Adds ``fn(batch) -> iterable of batches``: any number of batches of any number of rows. A
        batch yielded as ``(rows, batch)``, ``rows`` the input row each of its rows comes from (an
        integer array), has its rows attributed to those records in later errors; a bare batch's
        rows are attributed to the input batch's first record. The output
        columns are those of the first batch ``fn`` yields for an empty batch, the input's when it
        yields none, unless ``schema`` names them."""
        return self._python_step("flat_map", fn, schema, name=name, **options)

    def __getattr__(self, op):
        if op.startswith("_") or op not in _step_types():
            raise AttributeError(f"no step '{op}' (steps: {', '.join(_step_types())})")
        return functools.partial(self.step, op)

    def to_yaml(self):
        """The pipeline as the runner reads it (YAML in JSON's notation; the py_* steps refer to
        this Pipeline's functions by index, so it runs only through run())."""
        return json.dumps({"name": self.name, "steps": self._steps}, indent=1, default=os.fspath)

    def run(self, threads=0):
        """Runs the pipeline on ``threads`` engine threads (0: every core) and returns its
        RunMetrics, as recflow.run does. The native steps run without the GIL; the Python
        functions take it for each batch. An exception in a function fails the run with
        recflow.Error naming the step, the file and the batch's first record, raised from the
        function's exception."""
        native = _recflow.run_pipeline("recflow.Pipeline " + repr(self.name), self.to_yaml(), os.getcwd(), [],
                                       list(self._functions), int(threads))
        return _metrics(native)

    def __repr__(self):
        return f"recflow.Pipeline({self.name!r}, steps={[next(iter(s)) for s in self._steps]})"
