//! The database's own thread: SQLite's calls block (a commit waits for the disk), so
//! they run here, off the thread that serves every connection. The thread owns the
//! connection and takes jobs in the order they are given; each job's answer comes back
//! on a channel of its own, which the server awaits before it tells anyone what the job
//! stored (see `outbox`).

use super::db::Db;
use std::path::Path;
use std::sync::mpsc;
use tokio::sync::oneshot;

/// A job for the database's thread.
type Job = Box<dyn FnOnce(&mut Db) + Send>;

/// The handle to the database's thread: cheap to clone; the thread ends, its queue
/// done, when the last handle is dropped.
#[derive(Clone)]
pub(crate) struct Store {
    /// The jobs, in order.
    jobs: mpsc::Sender<Job>,
}

impl Store {
    /// Opens (making if missing) the database at `path` on a thread of its own.
    pub(crate) fn open(path: &Path) -> Result<Store, String> {
        let db = Db::open(path)?;
        let (jobs, queue) = mpsc::channel::<Job>();
        std::thread::Builder::new()
            .name("database".to_string())
            .spawn(move || {
                let mut db = db;
                for job in queue {
                    job(&mut db);
                }
            })
            .map_err(|e| format!("cannot start the database's thread: {e}"))?;
        Ok(Store { jobs })
    }

    /// Runs `job` on the database's thread, after every job given before it: its
    /// answer. (A closed answer means the thread is gone.)
    pub(crate) fn ask<T, F>(&self, job: F) -> oneshot::Receiver<T>
    where
        T: Send + 'static,
        F: FnOnce(&mut Db) -> T + Send + 'static,
    {
        let (answer, answered) = oneshot::channel();
        let job: Job = Box::new(move |db| {
            let _ = answer.send(job(db));
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
}
