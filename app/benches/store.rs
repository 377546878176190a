//! Match store benchmark: the latency of one durable append, and the time to read back a long
//! log. A plain `main` (harness = false) that prints its numbers:
//!
//! ```text
//! cargo bench --workspace --bench store
//! ```
//!
//! The file goes to a temporary folder under `CARGO_TARGET_TMPDIR` (inside the target dir, on
//! the disk of the workspace, not a tmpfs), or under `$TABLESIDE_BENCH_DIR` if set (to measure an
//! SD card, say). The file system is printed, since fsync cost is the whole story. For
//! comparison, the same append is also timed with other SQLite journal settings through plain
//! `rusqlite`. `TABLESIDE_BENCH_APPENDS` overrides the number of timed appends (default 2000).

use std::error::Error;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rusqlite::{Connection, params};
use tableside::store::Store;

/// A typical input as the `cards` crate writes it, about 150 bytes.
const INPUT: &str = r#"{"Move":{"player":2,"action":{"PlayCard":{"card":"TS1:duel:fuko:2","zone":"field-3","rotation":1}},"override":null,"source":"camera","frame":123456}}"#;

const WARM_UP: u64 = 100;
const READ_BACK_ENTRIES: u64 = 100_000;
const READ_BACK_RUNS: usize = 5;

type Result<T> = std::result::Result<T, Box<dyn Error>>;

fn main() -> Result<()> {
    // `cargo bench` passes `--bench`; there is nothing to filter.
    let appends: usize = match std::env::var("TABLESIDE_BENCH_APPENDS") {
        Ok(n) => n.parse()?,
        Err(_) => 2_000,
    };
    let base = std::env::var_os("TABLESIDE_BENCH_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_TARGET_TMPDIR")));
    std::fs::create_dir_all(&base)?;
    let dir = tempfile::tempdir_in(&base)?;
    println!("match store benchmark");
    println!(
        "  folder: {} ({})",
        dir.path().display(),
        filesystem_of(dir.path())
    );
    println!("  input: {} bytes of JSON", INPUT.len());
    println!();

    let samples = bench_fsync(&dir.path().join("fsync.bin"), appends)?;
    report(
        &format!(
            "baseline: append {} bytes to a plain file + fdatasync, {appends} times",
            INPUT.len()
        ),
        samples,
    );

    let store_path = dir.path().join("append.sqlite3");
    let samples = bench_store_append(&store_path, appends)?;
    report(
        &format!("Store::append, WAL + synchronous=FULL (the store), {appends} appends"),
        samples,
    );

    for (label, journal, sync) in [
        ("plain rusqlite, WAL + synchronous=FULL", "WAL", "FULL"),
        (
            "plain rusqlite, WAL + synchronous=NORMAL (NOT durable on power loss)",
            "WAL",
            "NORMAL",
        ),
        (
            "plain rusqlite, rollback journal DELETE + synchronous=FULL",
            "DELETE",
            "FULL",
        ),
    ] {
        let path = dir.path().join(format!("{journal}-{sync}.sqlite3"));
        let samples = bench_raw_append(&path, journal, sync, appends)?;
        report(&format!("{label}, {appends} appends"), samples);
    }

    bench_read_back(&dir.path().join("read.sqlite3"))?;
    Ok(())
}

fn input(seq: u64) -> String {
    // Vary the text a little so pages are not identical.
    INPUT.replace("123456", &(100_000 + seq % 900_000).to_string())
}

/// What the disk charges for durability: one small write and one `fdatasync`.
fn bench_fsync(path: &Path, appends: usize) -> Result<Vec<Duration>> {
    use std::io::Write;
    let mut file = std::fs::File::create(path)?;
    let mut samples = Vec::with_capacity(appends);
    for seq in 0..(WARM_UP + appends as u64) {
        let text = input(seq);
        let start = Instant::now();
        file.write_all(text.as_bytes())?;
        file.sync_data()?;
        if seq >= WARM_UP {
            samples.push(start.elapsed());
        }
    }
    Ok(samples)
}

fn bench_store_append(path: &Path, appends: usize) -> Result<Vec<Duration>> {
    let mut store = Store::open(path)?;
    let id = store.create_match("duel", r#"{"players":["Aki","Ben"]}"#, 0)?;
    let mut seq = 0;
    for _ in 0..WARM_UP {
        store.append(id, seq, &input(seq), 0)?;
        seq += 1;
    }
    let mut samples = Vec::with_capacity(appends);
    for _ in 0..appends {
        let text = input(seq);
        let start = Instant::now();
        store.append(id, seq, &text, 0)?;
        samples.push(start.elapsed());
        seq += 1;
    }
    let logged = store.get(id)?.entries;
    if logged != seq {
        return Err(format!("the store holds {logged} entries, expected {seq}").into());
    }
    Ok(samples)
}

/// The same work as `Store::append` (read the match row, insert the entry, bump the count, in
/// one immediate transaction), with the given journal mode and synchronous level.
fn bench_raw_append(
    path: &Path,
    journal: &str,
    sync: &str,
    appends: usize,
) -> Result<Vec<Duration>> {
    let mut conn = Connection::open(path)?;
    conn.pragma_update(None, "journal_mode", journal)?;
    conn.pragma_update(None, "synchronous", sync)?;
    conn.execute_batch(
        "CREATE TABLE matches (id INTEGER PRIMARY KEY, status TEXT NOT NULL,
                               entry_count INTEGER NOT NULL, updated_ms INTEGER NOT NULL) STRICT;
         CREATE TABLE entries (match_id INTEGER NOT NULL, seq INTEGER NOT NULL,
                               at_ms INTEGER NOT NULL, input_json TEXT NOT NULL,
                               PRIMARY KEY (match_id, seq)) STRICT, WITHOUT ROWID;
         INSERT INTO matches VALUES (1, 'open', 0, 0);",
    )?;
    let mut samples = Vec::with_capacity(appends);
    for seq in 0..(WARM_UP + appends as u64) {
        let text = input(seq);
        let start = Instant::now();
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let (status, count): (String, i64) = tx
            .prepare_cached("SELECT status, entry_count FROM matches WHERE id = 1")?
            .query_row([], |r| Ok((r.get(0)?, r.get(1)?)))?;
        black_box((status, count));
        tx.prepare_cached("INSERT INTO entries VALUES (1, ?1, 0, ?2)")?
            .execute(params![i64::try_from(seq)?, text])?;
        tx.prepare_cached(
            "UPDATE matches SET entry_count = entry_count + 1, updated_ms = 0 WHERE id = 1",
        )?
        .execute([])?;
        tx.commit()?;
        if seq >= WARM_UP {
            samples.push(start.elapsed());
        }
    }
    Ok(samples)
}

fn bench_read_back(path: &Path) -> Result<()> {
    let mut store = Store::open(path)?;
    let id = store.create_match("duel", r#"{"players":["Aki","Ben"]}"#, 0)?;
    drop(store);
    // Filling 100,000 entries through `append` would take one fsync each; write them in one
    // transaction instead (respecting the file's own in-order trigger), then read through the
    // store.
    let fill = Instant::now();
    let mut conn = Connection::open(path)?;
    let tx = conn.transaction()?;
    {
        let mut insert = tx.prepare("INSERT INTO entries VALUES (?1, ?2, ?3, ?4)")?;
        let mut bump =
            tx.prepare("UPDATE matches SET entry_count = entry_count + 1 WHERE id = ?1")?;
        for seq in 0..READ_BACK_ENTRIES {
            let seq = i64::try_from(seq)?;
            insert.execute(params![id.0, seq, seq, input(seq as u64)])?;
            bump.execute([id.0])?;
        }
    }
    tx.commit()?;
    drop(conn);
    let size = std::fs::metadata(path)?.len();
    println!(
        "read back: {READ_BACK_ENTRIES} entries filled in {:.2?} (file {:.1} MiB)",
        fill.elapsed(),
        size as f64 / 1_048_576.0
    );

    let mut opens = Vec::new();
    let mut opens_ro = Vec::new();
    let mut reads = Vec::new();
    for _ in 0..READ_BACK_RUNS {
        let start = Instant::now();
        let store = Store::open(path)?;
        opens.push(start.elapsed());
        drop(store);

        let start = Instant::now();
        let store = Store::open_read_only(path)?;
        opens_ro.push(start.elapsed());

        let start = Instant::now();
        let log = black_box(store.entries(id)?);
        reads.push(start.elapsed());
        if log.len() as u64 != READ_BACK_ENTRIES {
            return Err(format!("read {} entries, expected {READ_BACK_ENTRIES}", log.len()).into());
        }
    }
    for (label, mut samples) in [
        ("Store::entries (100,000 entries)", reads),
        ("Store::open incl. header check + quick_check", opens),
        ("Store::open_read_only incl. quick_check", opens_ro),
    ] {
        samples.sort();
        println!(
            "  {label}: median {:.2?}, min {:.2?}, max {:.2?} over {READ_BACK_RUNS} runs",
            samples[samples.len() / 2],
            samples[0],
            samples[samples.len() - 1]
        );
    }
    Ok(())
}

fn report(label: &str, mut samples: Vec<Duration>) {
    if samples.is_empty() {
        println!("{label}: no samples");
        return;
    }
    samples.sort();
    let at = |q: f64| samples[((samples.len() - 1) as f64 * q).round() as usize];
    let total: Duration = samples.iter().sum();
    println!("{label}");
    println!(
        "  min {:.3?}  median {:.3?}  p90 {:.3?}  p99 {:.3?}  max {:.3?}  mean {:.3?}  ({:.0} appends/s)",
        samples[0],
        at(0.5),
        at(0.9),
        at(0.99),
        samples[samples.len() - 1],
        total / samples.len() as u32,
        samples.len() as f64 / total.as_secs_f64()
    );
    println!();
}

/// The file system holding `path`, from /proc/self/mountinfo (Linux), e.g. "ext4 on /dev/vda".
fn filesystem_of(path: &Path) -> String {
    let Ok(path) = path.canonicalize() else {
        return "file system unknown".into();
    };
    let Ok(mountinfo) = std::fs::read_to_string("/proc/self/mountinfo") else {
        return "file system unknown (no /proc/self/mountinfo)".into();
    };
    let mut best: Option<(usize, String)> = None;
    for line in mountinfo.lines() {
        let fields: Vec<&str> = line.split(' ').collect();
        let Some(dash) = fields.iter().position(|f| *f == "-") else {
            continue;
        };
        let (Some(mount_point), Some(fs_type), Some(source)) =
            (fields.get(4), fields.get(dash + 1), fields.get(dash + 2))
        else {
            continue;
        };
        let mount_point = mount_point.replace("\\040", " ");
        if path.starts_with(&mount_point)
            && best
                .as_ref()
                .is_none_or(|(len, _)| mount_point.len() >= *len)
        {
            best = Some((
                mount_point.len(),
                format!("{fs_type} on {source}, mounted at {mount_point}"),
            ));
        }
    }
    best.map_or_else(|| "file system unknown".into(), |(_, text)| text)
}
