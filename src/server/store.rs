//! The database's own thread: SQLite's calls block (a commit waits for the disk), so
//! they run here, off the thread that serves every connection. The thread owns the
//! connection and takes jobs in the order they are given; each job's answer comes back
//! on a channel of its own, which the server awaits before it tells anyone what the job
//! stored (see `outbox`).
//!
//! Group commit: the jobs waiting when the thread is free run together in one
//! transaction, so that one wait for the disk stores them all. Each job's answer is
//! sent only once that transaction is committed; if it is not, no job of it is answered
//! (the answers close), so nothing it held is told to anyone.

use super::db::Db;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use tokio::sync::oneshot;

/// What a job gives back once its transaction is committed: the sending of its answer.
type Reply = Box<dyn FnOnce() + Send>;

/// A job for the database's thread: it runs inside its batch's transaction.
type Job = Box<dyn FnOnce(&mut Db) -> Reply + Send>;

/// The most jobs one transaction takes, so that the first of a long queue is not held
/// long for the last.
const MOST_IN_A_BATCH: usize = 256;

/// How much the database's thread did, for the operator (told as the server stops).
#[derive(Default)]
struct Counts {
    /// Jobs run.
    jobs: AtomicU64,
    /// Transactions committed.
    commits: AtomicU64,
    /// The most jobs one transaction held.
    largest: AtomicU64,
}

/// The handle to the database's thread: cheap to clone; the thread ends, its queue
/// done, when the last handle is dropped.
#[derive(Clone)]
pub(crate) struct Store {
    /// The jobs, in order.
    jobs: mpsc::Sender<Job>,
    /// What the thread did.
    counts: Arc<Counts>,
}

impl Store {
    /// Opens (making if missing) the database at `path` on a thread of its own.
    pub(crate) fn open(path: &Path) -> Result<Store, String> {
        let db = Db::open(path)?;
        let (jobs, queue) = mpsc::channel::<Job>();
        let counts = Arc::new(Counts::default());
        let counted = counts.clone();
        std::thread::Builder::new()
            .name("database".to_string())
            .spawn(move || run_batches(db, &queue, &counted))
            .map_err(|e| format!("cannot start the database's thread: {e}"))?;
        Ok(Store { jobs, counts })
    }

    /// Runs `job` on the database's thread, after every job given before it: its
    /// answer, once the transaction it ran in is committed. (A closed answer means the
    /// thread is gone, or that transaction failed.)
    pub(crate) fn ask<T, F>(&self, job: F) -> oneshot::Receiver<T>
    where
        T: Send + 'static,
        F: FnOnce(&mut Db) -> T + Send + 'static,
    {
        let (answer, answered) = oneshot::channel();
        let job: Job = Box::new(move |db| {
            let done = job(db);
            Box::new(move || {
                let _ = answer.send(done);
            })
        });
        // A send fails only once the thread is gone: the answer is then closed.
        let _ = self.jobs.send(job);
        answered
    }

    /// `job`'s answer, waited for on a thread that may block (the server's start).
    pub(crate) fn ask_now<T, F>(&self, job: F) -> Result<T, String>
    where
        T: Send + 'static,
        F: FnOnce(&mut Db) -> T + Send + 'static,
    {
        self.ask(job)
            .blocking_recv()
            .map_err(|_| "the database's thread is gone".to_string())
    }

    /// What the thread did so far, in words: jobs, transactions, the largest.
    pub(crate) fn counts_text(&self) -> String {
        let read = |n: &AtomicU64| n.load(Ordering::Relaxed);
        format!(
            "Database: {} jobs in {} transactions (at most {} in one)",
            read(&self.counts.jobs),
            read(&self.counts.commits),
            read(&self.counts.largest)
        )
    }
}

/// The database's thread: takes the jobs waiting (at least one) and runs them in one
/// transaction, then answers them, until every handle is gone.
fn run_batches(mut db: Db, queue: &mpsc::Receiver<Job>, counts: &Counts) {
    while let Ok(first) = queue.recv() {
        let mut batch = vec![first];
        batch.extend(queue.try_iter().take(MOST_IN_A_BATCH - 1));
        let size = batch.len() as u64;
        counts.jobs.fetch_add(size, Ordering::Relaxed);
        let run = db.in_one_transaction(|db| {
            let mut replies = Vec::with_capacity(batch.len());
            for job in batch {
                // A transaction the database rolled back by itself (a full disk) takes
                // no more jobs: the batch is not stored, and none of it is answered.
                if !db.in_transaction() {
                    break;
                }
                replies.push(job(db));
            }
            replies
        });
        match run {
            Ok(replies) => {
                counts.commits.fetch_add(1, Ordering::Relaxed);
                counts.largest.fetch_max(size, Ordering::Relaxed);
                replies.into_iter().for_each(|reply: Reply| reply());
            }
            // The replies are dropped: every answer of the batch closes.
            Err(e) => tracing::error!(jobs = size, error = e, "a batch of writes is not stored"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jobs_run_in_the_order_given_and_answer_each() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("s.sqlite")).unwrap();
        let added = store.ask(|db| db.add_player("alice", &[1; 32], 0));
        let found = store.ask(|db| db.player("alice").map(|p| p.map(|p| p.key)));
        assert!(added.blocking_recv().unwrap().is_ok());
        assert_eq!(found.blocking_recv().unwrap().unwrap(), Some(vec![1; 32]));
        assert_eq!(
            store.ask_now(|db| db.player("bob").unwrap().is_none()),
            Ok(true)
        );
    }

    /// A store whose thread is busy with a first job until the answer given is sent:
    /// the jobs asked meanwhile wait, and run together after it.
    fn held_store(dir: &Path) -> (Store, std::sync::mpsc::Sender<()>) {
        let store = Store::open(&dir.join("s.sqlite")).unwrap();
        let (release, held) = std::sync::mpsc::channel::<()>();
        let (started, starts) = std::sync::mpsc::channel::<()>();
        // Its answer is not awaited: the job runs all the same.
        drop(store.ask(move |_| {
            started.send(()).unwrap();
            held.recv().unwrap();
        }));
        starts.recv().unwrap();
        (store, release)
    }

    #[test]
    fn jobs_waiting_together_commit_in_one_transaction_each_answered_after_it() {
        let dir = tempfile::tempdir().unwrap();
        let (store, release) = held_store(dir.path());
        let added: Vec<_> = ["alice", "bob", "carol"]
            .into_iter()
            .map(|name| store.ask(move |db| db.add_player(name, &[1; 32], 0)))
            .collect();
        release.send(()).unwrap();
        for answer in added {
            assert_eq!(answer.blocking_recv().unwrap(), Ok(()));
        }
        assert_eq!(
            store.counts_text(),
            "Database: 4 jobs in 2 transactions (at most 3 in one)"
        );
        // Committed: a new connection reads them.
        let reopened = Db::open(&dir.path().join("s.sqlite")).unwrap();
        assert!(reopened.player("carol").unwrap().is_some());
    }

    #[test]
    fn a_batch_that_does_not_commit_answers_none_of_its_jobs_and_stores_none() {
        let dir = tempfile::tempdir().unwrap();
        let (store, release) = held_store(dir.path());
        let alice = store.ask(|db| db.add_player("alice", &[1; 32], 0));
        // The transaction is rolled back under the batch, as a full disk does.
        let failing = store.ask(|db| db.roll_back_for_test());
        let bob = store.ask(|db| db.add_player("bob", &[2; 32], 0));
        release.send(()).unwrap();
        assert!(alice.blocking_recv().is_err());
        assert!(failing.blocking_recv().is_err());
        assert!(bob.blocking_recv().is_err());
        // The next batch is stored as usual; the failed one is not.
        let found = store.ask_now(|db| {
            db.add_player("carol", &[3; 32], 0).unwrap();
            ["alice", "bob"].map(|n| db.player(n).unwrap().is_some())
        });
        assert_eq!(found, Ok([false, false]));
        let reopened = Db::open(&dir.path().join("s.sqlite")).unwrap();
        assert!(reopened.player("carol").unwrap().is_some());
        assert!(reopened.player("alice").unwrap().is_none());
    }
}
