"""A Dask LocalCluster of single-threaded worker processes on loopback and the wait for its workers after a kill:
what the Dask tests (test_python_dask.py) and the Dask benchmarks (bench/dask_*.py, through bench/dask_bench.py,
which puts this directory on sys.path as bench/taxi_csv.py does) share."""
import os
import time


def start_cluster(workers=2, silence_logs=40):
    """A LocalCluster of `workers` single-threaded worker processes on loopback (no fixed dashboard port), and its
    client; the cluster's log messages below level `silence_logs` are dropped."""
    from distributed import Client, LocalCluster

    local = LocalCluster(n_workers=workers, processes=True, threads_per_worker=1, host="127.0.0.1",
                         dashboard_address=":0", silence_logs=silence_logs)
    return local, Client(local)


def live_workers(client, killed, bound, workers=2):
    """The pids of the cluster's `workers` running workers once the scheduler lists none of the `killed` processes
    (a killed worker stays listed until the scheduler notices it, and its nanny starts a new process); None when that
    takes longer than `bound` seconds."""
    deadline = time.monotonic() + bound
    while time.monotonic() < deadline:
        running = [address for address, worker in client.scheduler_info()["workers"].items()
                   if worker["status"] == "running"]
        if len(running) == workers:
            pids = set(client.run(os.getpid, workers=running, on_error="return").values())
            if all(isinstance(pid, int) for pid in pids) and len(pids) == workers and not pids & killed:
                return sorted(pids)
        time.sleep(0.05)
    return None
