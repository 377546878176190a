//! `tableside`: the window (no subcommand) and the headless commands.

use clap::Parser;
use std::process::ExitCode;
use tableside::cli::{Cli, ExitError, run};
use tableside::store::default_db_path;
use tableside::ui::{UiOptions, run as run_ui};

/// mimalloc: the match log is many small allocations (JSON, entries); measured in
/// `benches/replay.rs`, it replays a long log markedly faster than the system allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let _ = tableside::ui::PROCESS_START.set(std::time::Instant::now());
    let cli = Cli::parse();
    let result = match &cli.command {
        Some(command) => run(&cli, command),
        None => default_db_path(cli.data_dir.as_deref())
            .map_err(anyhow::Error::from)
            .and_then(|db_path| {
                run_ui(UiOptions {
                    db_path,
                    kiosk: cli.kiosk,
                    tower: cli.tower.clone(),
                })
            }),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let code = e.downcast_ref::<ExitError>().map_or(1, |x| x.code);
            eprintln!("tableside: {e:#}");
            ExitCode::from(u8::try_from(code).unwrap_or(1))
        }
    }
}
