//! `tower-sim`: a simulated dice tower on a pseudo-terminal.
//!
//! Prints the port to open (a symlink to the current `/dev/pts/N`, stable across simulated
//! unplugs), then rolls from a script, random throws (one or two dice each), or commands typed
//! on standard input (the language of `firmware_bridge::sim::script`: `d6 4`, `2d6 3 5` (one
//! throw of two dice), `d6 3 + d20 17`, `roll`, `throw`, `flip`,
//! `truncate`, `dup`, `noise 64`, `drop 500`, `reset`, ... plus `status` and `quit`).
//!
//! ```text
//! tower-sim --dice 6,6,20 --random 100 --interval-ms 500 --bit-flip 0.05
//! tower-sim --script rolls.txt --link /tmp/tower --history 32 --persist counters
//! tower-sim --text --line-counter --line-check --link /tmp/printer
//! tableside --tower /tmp/tower      # in another terminal
//! tableside --tower /tmp/printer --line
//! ```

use std::io::BufRead;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use firmware_bridge::link::WireMode;
use firmware_bridge::message::DeviceId;
use firmware_bridge::sim::script::{Step, parse_line, parse_script};
use firmware_bridge::sim::{
    Command, FaultPlan, LineFormat, MAX_SIM_HISTORY, Persistence, Sim, SimConfig,
};

/// A simulated dice tower on a pseudo-terminal.
#[derive(Debug, Parser)]
#[command(name = "tower-sim", version)]
struct Args {
    /// Publish the port at this path (a symlink); default: a new temporary directory.
    #[arg(long)]
    link: Option<PathBuf>,
    /// The dice the tower holds, as sides.
    #[arg(long, value_delimiter = ',', default_value = "6,6")]
    dice: Vec<u8>,
    /// The device id (hex).
    #[arg(long, default_value = "7ab1e51de0000001", value_parser = parse_hex)]
    device: u64,
    /// Roll the steps of this script file (see `sim::script`).
    #[arg(long)]
    script: Option<PathBuf>,
    /// Make this many random throws (one or two dice of the tower's set each).
    #[arg(long)]
    random: Option<usize>,
    /// Pause between random throws.
    #[arg(long, default_value_t = 1000)]
    interval_ms: u64,
    /// Heartbeat period in milliseconds (0: none).
    #[arg(long, default_value_t = 1000)]
    heartbeat_ms: u64,
    /// Print `ROLL d6 4` lines instead of frames (a do-it-yourself tower).
    #[arg(long)]
    text: bool,
    /// Line mode: end each line with its counter, `#<n>`.
    #[arg(long, requires = "text")]
    line_counter: bool,
    /// Line mode: end each line with its CRC-8 check, `*<hh>`.
    #[arg(long, requires = "text")]
    line_check: bool,
    /// How many unacknowledged rolls the tower holds (1 to 4096); beyond it the oldest is
    /// dropped and reported to the host.
    #[arg(long, default_value_t = 32, value_parser = parse_history)]
    history: usize,
    /// What a `reset` keeps: nothing, counters (boot id and last sequence number, so the
    /// host learns exactly what was lost), or everything (the history too: nothing is lost).
    #[arg(long, default_value = "counters", value_parser = parse_persistence)]
    persist: Persistence,
    /// Seed for boot nonces, random rolls and faults.
    #[arg(long)]
    seed: Option<u64>,
    /// Probability of noise before each frame.
    #[arg(long, default_value_t = 0.0)]
    garbage: f64,
    /// Probability of a flipped bit in each frame.
    #[arg(long, default_value_t = 0.0)]
    bit_flip: f64,
    /// Probability of truncating each frame.
    #[arg(long, default_value_t = 0.0)]
    truncate: f64,
    /// Probability of sending each frame twice.
    #[arg(long, default_value_t = 0.0)]
    duplicate: f64,
    /// Probability of ignoring each frame from the host.
    #[arg(long, default_value_t = 0.0)]
    drop_host: f64,
    /// Exit when the script and random rolls are done (instead of reading standard input
    /// until it closes).
    #[arg(long)]
    exit_when_done: bool,
}

fn parse_history(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if (1..=MAX_SIM_HISTORY).contains(&n) => Ok(n),
        _ => Err(format!("give 1 to {MAX_SIM_HISTORY} rolls")),
    }
}

fn parse_persistence(s: &str) -> Result<Persistence, String> {
    match s {
        "nothing" => Ok(Persistence::Nothing),
        "counters" => Ok(Persistence::Counters),
        "everything" => Ok(Persistence::Everything),
        _ => Err("give nothing, counters or everything".to_owned()),
    }
}

fn parse_hex(s: &str) -> Result<u64, String> {
    u64::from_str_radix(s.trim_start_matches("0x"), 16).map_err(|e| e.to_string())
}

fn run_steps(sim: &Sim, steps: Vec<Step>) -> Result<(), String> {
    for step in steps {
        match step {
            Step::Command(c) => sim.send(c).map_err(|e| e.to_string())?,
            Step::Sleep(d) => std::thread::sleep(d),
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    let args = Args::parse();
    let script = match &args.script {
        Some(path) => match std::fs::read_to_string(path) {
            Ok(text) => match parse_script(&text) {
                Ok(steps) => steps,
                Err((line, e)) => {
                    eprintln!("tower-sim: {}:{line}: {e}", path.display());
                    return ExitCode::FAILURE;
                }
            },
            Err(e) => {
                eprintln!("tower-sim: cannot read {}: {e}", path.display());
                return ExitCode::FAILURE;
            }
        },
        None => Vec::new(),
    };
    let config = SimConfig {
        device: DeviceId(args.device),
        dice: args.dice.clone(),
        heartbeat: (args.heartbeat_ms > 0).then(|| Duration::from_millis(args.heartbeat_ms)),
        wire: if args.text {
            WireMode::Text
        } else {
            WireMode::Framed
        },
        faults: FaultPlan {
            garbage: args.garbage,
            garbage_max: 32,
            bit_flip: args.bit_flip,
            truncate: args.truncate,
            duplicate: args.duplicate,
            drop_host: args.drop_host,
        },
        seed: args.seed,
        link_path: args.link.clone(),
        history: args.history,
        persistence: args.persist,
        line_format: LineFormat {
            counter: args.line_counter,
            check: args.line_check,
        },
        ..SimConfig::default()
    };
    let sim = match Sim::spawn(config) {
        Ok(sim) => sim,
        Err(e) => {
            eprintln!("tower-sim: {e}");
            return ExitCode::FAILURE;
        }
    };
    println!("{}", sim.path().display());
    if let Some(tty) = sim.status().tty {
        eprintln!(
            "tower-sim: port {} -> {}",
            sim.path().display(),
            tty.display()
        );
    }

    let mut steps = script;
    if let Some(n) = args.random {
        for _ in 0..n {
            steps.push(Step::Command(Command::ThrowRandom));
            steps.push(Step::Sleep(Duration::from_millis(args.interval_ms)));
        }
    }
    if let Err(e) = run_steps(&sim, steps) {
        eprintln!("tower-sim: {e}");
        return ExitCode::FAILURE;
    }
    if args.exit_when_done {
        let _ = sim.sync();
        sim.shutdown();
        return ExitCode::SUCCESS;
    }

    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        match line.trim() {
            "quit" | "exit" => break,
            "status" => {
                let _ = sim.sync();
                eprintln!("{:#?}", sim.status());
                continue;
            }
            _ => {}
        }
        match parse_line(&line) {
            Ok(steps) => {
                if let Err(e) = run_steps(&sim, steps) {
                    eprintln!("tower-sim: {e}");
                    break;
                }
            }
            Err(e) => eprintln!("tower-sim: {e}"),
        }
    }
    sim.shutdown();
    ExitCode::SUCCESS
}
