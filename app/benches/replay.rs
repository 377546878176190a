//! Replay benchmark: rebuilding a stored match of 100,000 inputs from the store, as
//! `tableside replay` and resuming after a crash do. A plain `main` that prints its numbers:
//!
//! ```text
//! cargo bench --workspace --bench replay
//! ```
//!
//! The match is the demo Jaken match (docs/examples/jaken-demo.script) stopped in battle 4 and
//! then padded to 100,000 inputs with what a long evening adds to a log: manual adjustments,
//! free dice rolls and undos (one undo per five inputs, so the undo path is measured too).

use cards::catalogue::Catalogue;
use cards::script::{Script, StepResult, run_step};
use std::time::{Duration, Instant};
use tableside::session::{Session, load_match};
use tableside::store::Store;

/// The same allocator as the `tableside` binary.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const INPUTS: usize = 100_000;
const RUNS: usize = 7;

type Result<T> = std::result::Result<T, Box<dyn std::error::Error>>;

fn padded_inputs() -> Result<(cards::game::MatchHeader, Vec<serde_json::Value>)> {
    let text = include_str!("../../docs/examples/jaken-demo.script");
    let script = Script::parse(text)?;
    let cat = Catalogue::jaken_demo()?;
    let header = script.header(&cat)?;
    let mut m = cards::matches::new_match(header.clone(), &cat)?;
    let mut inputs = Vec::new();
    for (line, step) in &script.steps {
        if *line > 60 {
            break; // stop in battle 4, with a monster revealed
        }
        let mut keep = None;
        if let StepResult::Applied(p) = run_step(m.as_mut(), *line, step, &mut |_| Ok(()))? {
            keep = Some(serde_json::from_str(&p.json)?);
        }
        inputs.extend(keep);
    }
    let mut i = 0u32;
    while inputs.len() < INPUTS {
        let v = match i % 5 {
            0 => {
                serde_json::json!({"input": "adjust", "tracker": {"player": 0, "name": "sb"}, "value": 8 + i % 5, "reason": "recount"})
            }
            1 => {
                serde_json::json!({"input": "roll", "roll": {"sides": 6, "value": 1 + i % 6, "source": {"kind": "typed"}}})
            }
            2 => {
                serde_json::json!({"input": "adjust", "tracker": {"player": 1, "name": "atk"}, "value": 3 + i % 4, "reason": "field effect"})
            }
            3 => serde_json::json!({"input": "undo"}),
            _ => {
                serde_json::json!({"input": "roll", "roll": {"sides": 20, "value": 1 + i % 20, "source": {"kind": "virtual"}}})
            }
        };
        inputs.push(v);
        i += 1;
    }
    Ok((header, inputs))
}

fn main() -> Result<()> {
    let (header, inputs) = padded_inputs()?;
    // The same inputs applied in memory: the state the replay must reach.
    let cat = Catalogue::jaken_demo()?;
    let mut live = cards::matches::new_match(header.clone(), &cat)?;
    for v in &inputs {
        let p = live.prepare_json(v)?;
        live.commit_json(&p.json)?;
    }
    let live = live.state_json();
    // Storing 100,000 inputs one durable append at a time takes a minute: the database is kept
    // in the target folder between runs and rebuilt when it does not hold this log.
    let db = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("replay-bench.sqlite3");
    let cached = Store::open_read_only(&db)
        .ok()
        .and_then(|s| s.matches().ok()?.first().map(|r| (r.id, r.entries)))
        .filter(|(_, n)| *n == inputs.len() as u64);
    let id = match cached {
        Some((id, _)) => {
            println!(
                "replay benchmark: a stored Jaken match of {} inputs (database kept from an earlier run)",
                inputs.len()
            );
            id
        }
        None => {
            let _ = std::fs::remove_file(&db);
            let build = Instant::now();
            let mut session = Session::start(Store::open(&db)?, header)?;
            for v in &inputs {
                session.submit(v)?;
            }
            println!(
                "replay benchmark: a stored Jaken match of {} inputs (stored in {:.1?})",
                inputs.len(),
                build.elapsed()
            );
            session.id()
        }
    };
    let mut total = Vec::new();
    let mut open = Vec::new();
    let mut read = Vec::new();
    for _ in 0..RUNS {
        let t0 = Instant::now();
        let store = Store::open_read_only(&db)?;
        open.push(t0.elapsed());
        let m = load_match(&store, id)?;
        total.push(t0.elapsed());
        let t1 = Instant::now();
        let entries = store.entries(id)?;
        read.push(t1.elapsed());
        assert_eq!(entries.len(), inputs.len());
        assert_eq!(m.len(), inputs.len());
        assert_eq!(
            m.state_json(),
            live,
            "the replayed state differs from the live one"
        );
    }
    // Where the time goes: parsing the JSON alone, and replaying already-parsed inputs.
    let store = Store::open_read_only(&db)?;
    let entries = store.entries(id)?;
    let mut parse = Vec::new();
    let mut fold = Vec::new();
    let cat = Catalogue::jaken_demo()?;
    let header: cards::game::MatchHeader = serde_json::from_str(&store.get(id)?.header_json)?;
    for _ in 0..RUNS {
        let t0 = Instant::now();
        let parsed: Vec<cards::matches::Input<cards::games::jaken::Move>> = entries
            .iter()
            .map(|e| serde_json::from_str(&e.input_json))
            .collect::<std::result::Result<_, _>>()?;
        parse.push(t0.elapsed());
        let t1 = Instant::now();
        let m = cards::matches::Match::<cards::games::jaken::Jaken>::replay(
            header.clone(),
            &cat,
            parsed,
        )?;
        fold.push(t1.elapsed());
        assert_eq!(m.entries().len(), inputs.len());
    }
    let median = |v: &mut Vec<Duration>| {
        v.sort();
        v[v.len() / 2]
    };
    println!(
        "  read {} entries from SQLite: median {:.1?}",
        inputs.len(),
        median(&mut read)
    );
    println!(
        "  open the database read-only (header checks + quick_check): median {:.1?}",
        median(&mut open)
    );
    println!(
        "  parse {} inputs from JSON: median {:.1?}",
        inputs.len(),
        median(&mut parse)
    );
    println!(
        "  fold the parsed inputs (rules + undo): median {:.1?}",
        median(&mut fold)
    );
    println!(
        "  open + read + replay (what tableside replay / resume does): median {:.1?} over {RUNS} runs (target ≤ 200 ms)",
        median(&mut total)
    );
    Ok(())
}
