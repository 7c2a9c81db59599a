"""recflow run on windowed pipelines over test streams (Beam's TestStream): fixed, sliding and session windows,
early/on-time/late panes, allowed lateness, late data to dead letters, processing-time triggers, hostile stream
files, and the differential test — the same pipeline over a plain JSON Lines file of the same events in batch
mode gives the same per-window results. Every expectation is computed by hand from Beam's model."""
import json
import random

PANE = ("window_start", "window_end", "timestamp", "pane_index", "pane_nonspeculative_index", "pane_timing",
        "pane_is_first", "pane_is_last")


def write_stream(path, actions):
    path.write_text("".join(json.dumps(a) + "\n" for a in actions))
    return path


def elements(*rows):
    return {"elements": [{"ts": ts, "key": key, "v": v} for ts, key, v in rows]}


def run_pipeline(run, tmp_path, source, window, grouping, name="p", threads=None):
    """Runs source → window → grouping → one JSON Lines file; returns (process, rows, dead letters)."""
    out = tmp_path / f"{name}_out"
    letters = tmp_path / f"{name}_late.jsonl"
    pipeline = tmp_path / f"{name}.yaml"
    pipeline.write_text(f"""
steps:
  - {source}
  - window: {window}
    event_time: ts
  - {grouping}
    dead_letter: {letters}
  - write: {{path: {out}, format: jsonl, shards: 1}}
""")
    done = run("run", pipeline, "--quiet", *(["--threads", threads] if threads else []))
    rows = [json.loads(line) for f in sorted(out.glob("*.jsonl")) for line in f.read_text().splitlines()]
    dead = [json.loads(line) for line in letters.read_text().splitlines()] if letters.exists() else []
    return done, rows, dead


def pane(start, end, timestamp, index, nonspeculative, timing, first, last):
    return dict(zip(PANE, (start, end, timestamp, index, nonspeculative, timing, first, last)))


COUNT_SUM = 'combine_per_key: {keys: [key], aggregates: {count: "count_all()", sum: "sum(v)"}}'


def test_fixed_windows_fire_at_the_watermark_and_late_data_goes_to_dead_letters(run, tmp_path):
    stream = write_stream(tmp_path / "s.jsonl", [
        elements((1000, "a", 1), (2000, "b", 2), (9999, "a", 3)),
        elements((10000, "a", 4)),
        {"watermark": 10000},
        elements((9000, "a", 5)),  # [0, 10s) ended at the watermark: late, lateness 0
        elements((15000, "b", 6)),
    ])
    done, rows, dead = run_pipeline(run, tmp_path, f"test_stream: {{path: {stream}}}", "{fixed: 10s}", COUNT_SUM)
    assert done.returncode == 0, done.stderr
    on_time = lambda start: pane(start, start + 10000, start + 9999, 0, 0, "on_time", True, True)
    assert rows == [
        {"key": "a", "count": 2, "sum": 4, **on_time(0)},
        {"key": "b", "count": 1, "sum": 2, **on_time(0)},
        {"key": "a", "count": 1, "sum": 4, **on_time(10000)},
        {"key": "b", "count": 1, "sum": 6, **on_time(10000)},
    ]
    assert len(dead) == 1
    letter = dead[0]
    assert (letter["step"], letter["file"], letter["record"]) == ("combine_per_key", str(stream), 4)
    assert (letter["event_time"], letter["watermark"], letter["window_start"], letter["window_end"]) == (9000, 10000, 0, 10000)
    assert letter["row"] == {"ts": 9000, "key": "a", "v": 5}
    assert "too late" in letter["error"]


def test_a_late_row_after_a_filter_is_named_by_its_own_record(run, tmp_path):
    # The filter drops rows before the grouping: the dead letter still names the element's index in the file.
    stream = write_stream(tmp_path / "s.jsonl", [
        elements((1000, "a", 1), (2000, "a", 2), (3000, "a", 3)),
        {"watermark": 20000},
        elements((4000, "a", 4), (5000, "a", 5), (6000, "a", 6)),
    ])
    out, letters, pipeline = tmp_path / "out", tmp_path / "late.jsonl", tmp_path / "p.yaml"
    pipeline.write_text(f"""
steps:
  - test_stream: {{path: {stream}}}
  - filter: "v != 4"
  - window: {{fixed: 10s}}
  - {COUNT_SUM}
    dead_letter: {letters}
  - write: {{path: {out}, format: jsonl}}
""")
    done = run("run", pipeline, "--quiet")
    assert done.returncode == 0, done.stderr
    assert [(d["record"], d["row"]["v"]) for d in map(json.loads, letters.read_text().splitlines())] == [(4, 5), (5, 6)]


def test_fixed_windows_with_offset_durations_in_milliseconds(run, tmp_path):
    stream = write_stream(tmp_path / "s.jsonl", [elements((1999, "a", 1), (2000, "a", 2), (6999, "a", 3))])
    done, rows, _ = run_pipeline(run, tmp_path, f"test_stream: {{path: {stream}}}", "{fixed: {size: 5000, offset: 2s}}",
                                 COUNT_SUM)
    assert done.returncode == 0, done.stderr
    assert [(r["window_start"], r["window_end"], r["sum"]) for r in rows] == [(-3000, 2000, 1), (2000, 7000, 5)]


def test_sliding_windows_hold_each_element_size_over_period_times(run, tmp_path):
    stream = write_stream(tmp_path / "s.jsonl", [elements((3000, "a", 1), (7000, "a", 2), (12000, "a", 3))])
    done, rows, _ = run_pipeline(run, tmp_path, f"test_stream: {{path: {stream}}}", "{sliding: {size: 10s, period: 5s}}",
                                 "group_by_key: key")
    assert done.returncode == 0, done.stderr
    assert [(r["window_start"], r["window_end"], r["v"], r["ts"]) for r in rows] == [
        (-5000, 5000, [1], [3000]),
        (0, 10000, [1, 2], [3000, 7000]),
        (5000, 15000, [2, 3], [7000, 12000]),
        (10000, 20000, [3], [12000]),
    ]
    assert all(r["pane_timing"] == "on_time" and r["pane_is_last"] for r in rows)


def test_sessions_merge_out_of_order_elements_per_key(run, tmp_path):
    stream = write_stream(tmp_path / "s.jsonl", [
        elements((1000, "a", 1), (12000, "a", 2), (1000, "b", 10)),  # a: [1s, 6s) and [12s, 17s)
        elements((6500, "a", 3)),    # [6.5s, 11.5s): touches neither
        elements((5000, "a", 4)),    # bridges [1s, 6s) and [6.5s, 11.5s) → [1s, 11.5s)
        elements((11000, "a", 5)),   # bridges that and [12s, 17s) → [1s, 17s)
        elements((30000, "a", 6)),   # a session of its own
    ])
    done, rows, _ = run_pipeline(run, tmp_path, f"test_stream: {{path: {stream}}}", "{sessions: {gap: 5s}}",
                                 "group_by_key: key")
    assert done.returncode == 0, done.stderr
    got = [(r["key"], r["window_start"], r["window_end"], sorted(r["v"]), r["timestamp"]) for r in rows]
    assert got == [("b", 1000, 6000, [10], 5999), ("a", 1000, 17000, [1, 2, 3, 4, 5], 16999), ("a", 30000, 35000, [6], 34999)]


def test_early_on_time_and_late_panes_accumulating_within_the_allowed_lateness(run, tmp_path):
    stream = write_stream(tmp_path / "s.jsonl", [
        elements((1000, "a", 1), (2000, "a", 2)),  # the early trigger's count of 2: an early pane
        elements((3000, "a", 3)),
        {"watermark": 10000},                      # the on-time pane
        elements((4000, "a", 4)),                  # late, within 5 s: a late pane
        {"watermark": 15000},                      # 9999 + 5000 < 15000: the window is collected
        elements((5000, "a", 5)),                  # too late: a dead letter
    ])
    window = ("{fixed: 10s, trigger: {after_watermark: {early: {after_count: 2}, late: {after_count: 1}}}, "
              "accumulation: accumulating, allowed_lateness: 5s}")
    done, rows, dead = run_pipeline(run, tmp_path, f"test_stream: {{path: {stream}}}", window, COUNT_SUM)
    assert done.returncode == 0, done.stderr
    assert rows == [
        {"key": "a", "count": 2, "sum": 3, **pane(0, 10000, 9999, 0, -1, "early", True, False)},
        {"key": "a", "count": 3, "sum": 6, **pane(0, 10000, 9999, 1, 0, "on_time", False, False)},
        {"key": "a", "count": 4, "sum": 10, **pane(0, 10000, 9999, 2, 1, "late", False, False)},
    ]
    assert [(d["event_time"], d["watermark"]) for d in dead] == [(5000, 15000)]


def test_discarding_early_panes_then_an_empty_on_time_pane(run, tmp_path):
    # Beam's OnTimeBehavior.FIRE_ALWAYS: the on-time pane fires with nothing new since the early one.
    stream = write_stream(tmp_path / "s.jsonl", [elements((1000, "a", 1), (2000, "a", 2)), {"watermark": 20000}])
    window = "{fixed: 10s, trigger: {after_watermark: {early: {after_count: 2}}}, timestamp_combiner: earliest}"
    done, rows, _ = run_pipeline(run, tmp_path, f"test_stream: {{path: {stream}}}", window, COUNT_SUM)
    assert done.returncode == 0, done.stderr
    assert rows == [
        {"key": "a", "count": 2, "sum": 3, **pane(0, 10000, 1000, 0, -1, "early", True, False)},
        {"key": "a", "count": 0, "sum": 0, **pane(0, 10000, 9999, 1, 0, "on_time", False, True)},
    ]


def test_processing_time_trigger_fires_by_the_stream_clock(run, tmp_path):
    stream = write_stream(tmp_path / "s.jsonl", [
        {"processing_time": 0},
        elements((1000, "a", 1)),       # arms the trigger for processing time 5000
        {"processing_time": 4000},
        elements((2000, "a", 2)),
        {"processing_time": 5000},      # fires: an early pane of 1 + 2
        elements((3000, "a", 3)),       # arms it for 10000
        {"processing_time": 9999},
    ])
    window = "{fixed: 60s, trigger: {repeatedly: {after_processing_time: 5s}}}"
    done, rows, _ = run_pipeline(run, tmp_path, f"test_stream: {{path: {stream}}}", window, COUNT_SUM)
    assert done.returncode == 0, done.stderr
    assert [(r["count"], r["sum"], r["pane_timing"], r["pane_index"], r["pane_is_last"]) for r in rows] == [
        (2, 3, "early", 0, False), (1, 3, "on_time", 1, True)]


def test_plan_shows_the_windowing_of_a_grouping(run, tmp_path):
    stream = write_stream(tmp_path / "s.jsonl", [elements((1000, "a", 1))])
    pipeline = tmp_path / "p.yaml"
    pipeline.write_text(f"""
steps:
  - test_stream: {{path: {stream}}}
  - window: {{sessions: {{gap: 1m}}, trigger: {{after_watermark: {{late: {{after_count: 1}}}}}}, allowed_lateness: 1h}}
  - {COUNT_SUM}
  - write: {{path: {tmp_path / 'out'}, format: jsonl}}
""")
    done = run("plan", pipeline)
    assert done.returncode == 0, done.stderr
    assert ("per window: sessions(gap 60000ms), trigger after_watermark(late: after_count(1)), discarding, "
            "lateness 3600000ms, timestamp end_of_window, event time ts") in done.stdout, done.stdout


def test_late_data_fails_the_run_by_default_naming_file_and_record(run, tmp_path):
    stream = write_stream(tmp_path / "s.jsonl", [elements((1000, "a", 1)), {"watermark": 20000}, elements((1500, "a", 2))])
    pipeline = tmp_path / "p.yaml"
    pipeline.write_text(f"""
steps:
  - test_stream: {{path: {stream}}}
  - window: {{fixed: 10s}}
  - {COUNT_SUM}
  - write: {{path: {tmp_path / 'out'}, format: jsonl}}
""")
    done = run("run", pipeline, "--quiet")
    assert done.returncode == 1
    assert str(stream) in done.stderr and "record 1" in done.stderr and "too late" in done.stderr, done.stderr
    assert not (tmp_path / "out").exists()


def test_hostile_test_streams_name_the_file_line_and_offset(run, tmp_path):
    cases = {
        "two_actions": ('{"elements": [{"ts": 1, "key": "a", "v": 1}]}\n{"watermark": 5, "processing_time": 3}\n',
                        "line 2: a line holds exactly one action"),
        "watermark_back": ('{"elements": [{"ts": 1, "key": "a", "v": 1}]}\n\n{"watermark": 5}\n{"watermark": 4}\n',
                           "line 4: watermark 4 goes back"),
        "no_ts": ('{"elements": [{"ts": 1, "key": "a", "v": 1}]}\n{"elements": [{"key": "b", "v": 2}]}\n',
                  "line 2: element 0 has no \"ts\""),
        "unknown": ('{"elements": [{"ts": 1, "key": "a", "v": 1}]}\n{"advance": 3}\n', "'advance' is not a test stream action"),
        "not_json": ('{"elements": [{"ts": 1, "key": "a", "v": 1}]}\n{"watermark": \n', "line 2"),
        "text_ts": ('{"elements": [{"ts": "soon", "key": "a", "v": 1}]}\n', "\"ts\""),
    }
    for name, (text, message) in cases.items():
        stream = tmp_path / f"{name}.jsonl"
        stream.write_text(text)
        pipeline = tmp_path / f"{name}.yaml"
        pipeline.write_text(f"""
steps:
  - test_stream: {{path: {stream}}}
  - window: {{fixed: 10s}}
  - {COUNT_SUM}
  - write: {{path: {tmp_path / name}, format: jsonl}}
""")
        done = run("run", pipeline, "--quiet")
        assert done.returncode != 0, name
        assert str(stream) in done.stderr and message in done.stderr, (name, done.stderr)


def test_window_step_errors_are_positioned_usage_errors(run, tmp_path):
    stream = write_stream(tmp_path / "s.jsonl", [elements((1000, "a", 1))])
    for window, message in [("{fixed: 10 s}", "is not a duration"),
                            ("{fixed: 10s, sessions: {gap: 1s}}", "names one of fixed, sliding, sessions or global"),
                            ("{fixed: 10s, trigger: {after_lunch: 1}}", "'after_lunch' is not a trigger"),
                            ("{fixed: 10s, trigger: {after_count: 0}}", "at least 1"),
                            ("{fixed: 10s, trigger: {after_count: 99999999999999999999}}", "at least 1"),
                            ("{sliding: {size: 10s}}", "needs period"),
                            ("{fixed: 10s, accumulation: sometimes}", "discarding or accumulating"),
                            ("{fixed: 10s}\n  - drop: [ts]", "event time column 'ts' of its windows is gone")]:
        pipeline = tmp_path / "p.yaml"
        pipeline.write_text(f"""
steps:
  - test_stream: {{path: {stream}}}
  - window: {window}
  - {COUNT_SUM}
  - write: {{path: {tmp_path / 'out'}, format: jsonl}}
""")
        done = run("run", pipeline, "--quiet")
        assert done.returncode == 2 and message in done.stderr and "p.yaml:" in done.stderr, (window, done.stderr)


def differential_events(seed, n=3000, keys=7):
    """Events with out-of-order times (jitter up to 4 s) and bundles of 50, each followed by a watermark that
    no later event is behind (so no data is late and every window's panes are all on time)."""
    rng = random.Random(seed)
    events = [(i * 37 + rng.randrange(4000), f"k{rng.randrange(keys)}", rng.randrange(-50, 100)) for i in range(n)]
    actions = []
    for start in range(0, n, 50):
        actions.append(elements(*events[start:start + 50]))
        rest = events[start + 50:]
        if rest:
            actions.append({"watermark": min(ts for ts, _, _ in rest)})
    return events, actions


def test_batch_and_streaming_give_the_same_per_window_results(run, tmp_path):
    events, actions = differential_events(17)
    stream = write_stream(tmp_path / "stream.jsonl", actions)
    batch = tmp_path / "events.jsonl"
    batch.write_text("".join(json.dumps({"ts": ts, "key": k, "v": v}) + "\n" for ts, k, v in events))
    for i, window in enumerate(("{fixed: 10s}", "{sliding: {size: 10s, period: 2500ms}}", "{sessions: {gap: 150ms}}")):
        results = []
        for name, source in (("stream", f"test_stream: {{path: {stream}}}"), ("batch", f"read: {batch}")):
            done, rows, dead = run_pipeline(run, tmp_path, source, window, COUNT_SUM, name=f"{name}{i}")
            assert done.returncode == 0, done.stderr
            assert dead == []
            results.append(sorted(tuple(sorted(r.items())) for r in rows))
        assert results[0] == results[1], window
        assert len(results[0]) > 10
        # An oracle for the fixed windows: per key and 10 s window, the count and sum of the events.
        if window == "{fixed: 10s}":
            oracle = {}
            for ts, k, v in events:
                c, s = oracle.get((k, ts - ts % 10000), (0, 0))
                oracle[(k, ts - ts % 10000)] = (c + 1, s + v)
            got = {(dict(r)["key"], dict(r)["window_start"]): (dict(r)["count"], dict(r)["sum"]) for r in results[0]}
            assert got == oracle


def test_a_windowed_grouping_of_two_inputs_fires_by_the_minimum_of_their_watermarks(run, tmp_path):
    # One input's watermark passes 10 s while the other's is still at 5 s: the [0, 10 s) window stays open for the
    # second input's element at 8 s (with the first input's watermark alone, that element would be late and fail).
    one = write_stream(tmp_path / "one.jsonl", [elements((1000, "a", 1)), {"watermark": 20000}, elements((15000, "a", 10))])
    two = write_stream(tmp_path / "two.jsonl", [elements((2000, "a", 2)), {"watermark": 5000}, elements((8000, "a", 3))])
    pipeline = tmp_path / "p.yaml"
    for first, second in (("one", "two"), ("two", "one")):
        out = tmp_path / f"out_{first}"
        pipeline.write_text(f"""
steps:
  - {{name: one, test_stream: {{path: {one}}}}}
  - {{name: two, test_stream: {{path: {two}}}}}
  - {{flatten: {{}}, input: [{first}, {second}]}}
  - window: {{fixed: 10s}}
  - {COUNT_SUM}
  - write: {{path: {out}, format: jsonl}}
""")
        done = run("run", pipeline, "--quiet")
        assert done.returncode == 0, done.stderr
        rows = [json.loads(line) for f in sorted(out.glob("*.jsonl")) for line in f.read_text().splitlines()]
        on_time = lambda start: pane(start, start + 10000, start + 9999, 0, 0, "on_time", True, True)
        assert sorted(rows, key=lambda r: r["window_start"]) == [
            {"key": "a", "count": 3, "sum": 6, **on_time(0)},
            {"key": "a", "count": 1, "sum": 10, **on_time(10000)},
        ], (first, rows)


def test_panes_do_not_depend_on_the_thread_count(run, tmp_path):
    _, actions = differential_events(5, n=2000)
    stream = write_stream(tmp_path / "stream.jsonl", actions)
    window = "{sessions: {gap: 200ms}, trigger: {after_watermark: {early: {after_count: 3}}}, accumulation: accumulating}"
    outputs = []
    for threads in (1, 3):
        done, rows, _ = run_pipeline(run, tmp_path, f"test_stream: {{path: {stream}}}", window, "group_by_key: key",
                                     name=f"t{threads}", threads=threads)
        assert done.returncode == 0, done.stderr
        outputs.append(rows)
    assert outputs[0] == outputs[1]
    assert {r["pane_timing"] for r in outputs[0]} == {"early", "on_time"}
