//! The workers a server key computes with: one CPU worker with its own thread
//! budget, and per GPU a bounded set of stream-bound workers sharing that GPU's copy
//! of the key.
//!
//! **CPU.** Circuits run on the worker's own rayon pool of `threads` threads, so
//! however many user threads submit work, no more than `threads` compute. A caller
//! waits asleep: a thread of another rayon pool (the guide's `par_iter`) does not
//! pick up more of its pool's jobs while it waits, which would pile circuits up on
//! its stack. The worker counts the circuits running on it; a bootstrap is split
//! over several threads only when a circuit runs alone (cores would otherwise
//! idle), and circuits built while others run are told a smaller share of the
//! threads, so they choose work-efficient shapes.
//!
//! **GPU.** Each GPU holds one copy of the key; its `streams × overprovision`
//! logical workers are backends bound to streams of their own. A circuit leases one
//! for its whole run and gives it back after: the number of streams per GPU is fixed
//! by the configuration, whatever the number of user threads, and nothing stays
//! bound to a thread (so there is nothing to release when a thread's key is unset
//! or the thread ends).

use crate::backend::cpu::CpuBackend;
use crate::backend::gpu::CudaBackend;
use crate::error::{Error, Result};
use crate::shortint;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Condvar;
use std::sync::{Arc, Mutex, Weak};

/// Threads that compute on the CPU, shared by every key with the same thread
/// budget in the process (so two keys used at once do not double the threads), and
/// the count of circuits running on them.
#[derive(Debug)]
struct CpuPool {
    pool: rayon::ThreadPool,
    threads: usize,
    running: Arc<AtomicUsize>,
}

impl CpuPool {
    /// The process's pool of `threads` threads, started on first use.
    fn shared(threads: usize) -> Result<Arc<Self>> {
        static POOLS: Mutex<Vec<Weak<CpuPool>>> = Mutex::new(Vec::new());
        let mut pools = POOLS.lock().unwrap_or_else(|p| p.into_inner());
        pools.retain(|p| p.strong_count() > 0);
        if let Some(pool) = pools
            .iter()
            .filter_map(Weak::upgrade)
            .find(|p| p.threads == threads)
        {
            return Ok(pool);
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("gpufhe-cpu-{i}"))
            .build()
            .map_err(|e| {
                Error::InvalidParameter(format!(
                    "could not start {threads} CPU worker threads: {e}"
                ))
            })?;
        let pool = Arc::new(Self {
            pool,
            threads,
            running: Arc::new(AtomicUsize::new(0)),
        });
        pools.push(Arc::downgrade(&pool));
        Ok(pool)
    }
}

/// The CPU worker of a key: the key and the threads it computes on.
#[derive(Debug)]
pub(crate) struct CpuWorker {
    backend: CpuBackend,
    pool: Arc<CpuPool>,
}

impl CpuWorker {
    /// A worker computing with `key` on `threads` threads (shared with the other
    /// keys of the process that have the same budget).
    pub(crate) fn new(key: Arc<shortint::ServerKey>, threads: usize) -> Result<Self> {
        let pool = CpuPool::shared(threads.max(1))?;
        Ok(Self {
            backend: CpuBackend::from_shared(key).with_running_circuits(pool.running.clone()),
            pool,
        })
    }

    /// The backend (for what does not compute: parameters, block checks).
    pub(crate) fn backend(&self) -> &CpuBackend {
        &self.backend
    }

    /// The thread budget.
    pub(crate) fn threads(&self) -> usize {
        self.pool.threads
    }

    /// Circuits running now on its threads (from every key sharing them).
    pub(crate) fn running(&self) -> usize {
        self.pool.running.load(Ordering::Relaxed)
    }

    /// Bootstraps per operation a circuit built now can run at once: its share of
    /// the threads, given the circuits already running.
    pub(crate) fn parallelism_hint(&self) -> usize {
        (self.threads() / (self.running() + 1)).max(1)
    }

    /// Runs `f` on the worker's threads, counted as one running circuit; the calling
    /// thread waits asleep (see the module docs).
    pub(crate) fn run<R: Send>(&self, f: impl FnOnce(&CpuBackend) -> R + Send) -> R {
        let _running = Running::enter(&self.pool.running);
        let backend = &self.backend;
        let pool = &self.pool.pool;
        if pool.current_thread_index().is_some() {
            return f(backend);
        }
        if rayon::current_thread_index().is_some() {
            // A worker of another pool would run that pool's jobs while it waits in
            // `install`; a plain thread just sleeps.
            let mut work = Some(f);
            let waited = std::thread::scope(|scope| {
                let work = &mut work;
                std::thread::Builder::new()
                    .name("gpufhe-wait".into())
                    .spawn_scoped(scope, move || {
                        work.take().map(|f| pool.install(|| f(backend)))
                    })
                    .map(|handle| handle.join())
            });
            return match (waited, work) {
                (Ok(Ok(Some(result))), _) => result,
                (Ok(Err(panic)), _) => std::panic::resume_unwind(panic),
                // No thread could be started: wait here after all.
                (_, Some(f)) => pool.install(|| f(backend)),
                (_, None) => unreachable!("the waiting thread ran the work, or it is still here"),
            };
        }
        pool.install(|| f(backend))
    }
}

/// Counts a running circuit until dropped (also when the circuit panics).
struct Running<'a>(&'a AtomicUsize);

impl<'a> Running<'a> {
    fn enter(counter: &'a AtomicUsize) -> Self {
        counter.fetch_add(1, Ordering::Relaxed);
        Self(counter)
    }
}

impl Drop for Running<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

/// The workers of one GPU: its copy of the key, and stream-bound backends lent to
/// one circuit at a time.
#[derive(Debug)]
pub(crate) struct GpuWorkers {
    key: CudaBackend,
    idle: Mutex<Vec<CudaBackend>>,
    returned: Condvar,
    workers: usize,
    running: AtomicUsize,
}

impl GpuWorkers {
    /// `workers` stream-bound workers sharing `key`: the first on the key's own
    /// stream (where the key was set up, so it needs no wait for the setup), the
    /// others on new streams, so that the key has exactly `workers` streams on its
    /// GPU.
    // Without the `gpu` feature `CudaBackend` has no values: nothing here runs.
    #[cfg_attr(not(feature = "gpu"), allow(unreachable_code, unused_variables))]
    pub(crate) fn new(key: CudaBackend, workers: usize) -> Result<Self> {
        let idle = std::iter::once(Ok(key.clone()))
            .chain((1..workers.max(1)).map(|_| key.on_new_stream()))
            .collect::<Result<Vec<_>>>()?;
        Ok(Self {
            workers: idle.len(),
            key,
            idle: Mutex::new(idle),
            returned: Condvar::new(),
            running: AtomicUsize::new(0),
        })
    }

    /// The key on this GPU, on the first worker's stream (calibration queues work on
    /// it; everything else only reads its device, counters and parallelism).
    pub(crate) fn key(&self) -> &CudaBackend {
        &self.key
    }

    /// The number of logical workers (streams).
    pub(crate) fn workers(&self) -> usize {
        self.workers
    }

    /// Circuits running or waiting for a worker.
    pub(crate) fn running(&self) -> usize {
        self.running.load(Ordering::Relaxed)
    }

    /// A worker for one circuit, waiting (asleep) until one is free.
    pub(crate) fn lease(&self) -> Lease<'_> {
        self.running.fetch_add(1, Ordering::Relaxed);
        let mut idle = self.idle.lock().unwrap_or_else(|p| p.into_inner());
        loop {
            if let Some(backend) = idle.pop() {
                return Lease {
                    owner: self,
                    backend: Some(backend),
                };
            }
            idle = self.returned.wait(idle).unwrap_or_else(|p| p.into_inner());
        }
    }
}

/// A stream-bound GPU worker lent to one circuit; it goes back when dropped.
pub(crate) struct Lease<'a> {
    owner: &'a GpuWorkers,
    backend: Option<CudaBackend>,
}

impl std::ops::Deref for Lease<'_> {
    type Target = CudaBackend;

    fn deref(&self) -> &CudaBackend {
        self.backend.as_ref().unwrap_or_else(|| self.owner.key())
    }
}

impl Drop for Lease<'_> {
    fn drop(&mut self) {
        if let Some(backend) = self.backend.take() {
            let mut idle = self.owner.idle.lock().unwrap_or_else(|p| p.into_inner());
            idle.push(backend);
            self.owner.returned.notify_one();
        }
        self.owner.running.fetch_sub(1, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shortint::{ClientKey, ServerKey, PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2};

    #[test]
    fn cpu_work_runs_on_the_worker_threads_and_is_counted() {
        let ck = ClientKey::new(PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2).unwrap();
        let key = Arc::new(ServerKey::new(&ck).unwrap());
        let worker = CpuWorker::new(key.clone(), 3).unwrap();
        assert_eq!(worker.threads(), 3);
        // Another key with the same budget shares the threads.
        let other_key = CpuWorker::new(key, 3).unwrap();
        assert!(Arc::ptr_eq(&worker.pool, &other_key.pool));
        assert_eq!(worker.parallelism_hint(), 3);
        let (threads, running, hint) = worker.run(|_| {
            (
                rayon::current_num_threads(),
                worker.running(),
                worker.parallelism_hint(),
            )
        });
        assert_eq!((threads, running, hint), (3, 1, 1));
        assert_eq!(worker.running(), 0);
        // From a thread of another pool: same pool, same count, and the result back.
        let other = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let inside = other.install(|| worker.run(|_| rayon::current_thread_index().is_some()));
        assert!(inside);
        let names =
            other.install(|| worker.run(|_| std::thread::current().name().map(str::to_owned)));
        assert!(names.is_some_and(|n| n.starts_with("gpufhe-cpu-")));
        // Nested use from the worker's own threads runs in place.
        assert_eq!(worker.run(|_| worker.run(|_| worker.running())), 2);
    }
}
