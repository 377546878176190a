//! `tableside`: the window (no subcommand) and the headless commands.

use clap::Parser;
use std::process::ExitCode;
use tableside::cli::{Cli, ExitError, run};
use tableside::store::default_db_path;
use tableside::ui::{UiOptions, run_with_config};

/// mimalloc: the match log is many small allocations (JSON, entries); measured in
/// `benches/replay.rs`, it replays a long log markedly faster than the system allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let _ = tableside::ui::PROCESS_START.set(std::time::Instant::now());
    let mut cli = Cli::parse();
    let config = match tableside::config::config_path(cli.config.as_deref()) {
        Some(path) => tableside::config::Config::load(&path),
        None => Ok(tableside::config::Config::default()),
    };
    let window_config = tableside::ui::WindowConfig::from_loaded(config.as_ref());
    let config = match config {
        Ok(config) => config,
        // `tableside config check` reports the problem itself.
        Err(_) if matches!(cli.command, Some(tableside::cli::Command::Config { .. })) => {
            tableside::config::Config::default()
        }
        // The window opens with the defaults and shows the problem: a kiosk never starts to
        // a black screen over a typo.
        Err(e) if cli.command.is_none() => {
            eprintln!("tableside: {e} (the defaults are in effect; see `tableside config check`)");
            tableside::config::Config::default()
        }
        Err(e) => {
            eprintln!("tableside: {e} (see `tableside config check`)");
            return ExitCode::from(1);
        }
    };
    // Flags win over the environment, which wins over the config file.
    if cli.data_dir.is_none() && std::env::var_os(tableside::store::DATA_DIR_ENV).is_none() {
        cli.data_dir.clone_from(&config.data.dir);
    }
    cli.kiosk |= config.ui.kiosk;
    cli.tower = match cli.tower_choice(&config) {
        Ok(tower) => tower,
        Err(e) => {
            eprintln!("tableside: {e}");
            return ExitCode::from(2);
        }
    };
    let result = match &cli.command {
        Some(command) => run(&cli, command),
        None => default_db_path(cli.data_dir.as_deref())
            .map_err(anyhow::Error::from)
            .and_then(|db_path| {
                // With `[club]` in the config, matches are pushed to the club in the background.
                if let Some(club) = &config.club {
                    match tableside::sync::SyncService::start(
                        club,
                        db_path.clone(),
                        Default::default(),
                    ) {
                        Ok(sync) => tableside::sync::install(sync),
                        Err(e) => eprintln!("tableside: club sync: {e}"),
                    }
                }
                run_with_config(
                    UiOptions {
                        db_path,
                        kiosk: cli.kiosk,
                        tower: cli.tower.clone(),
                    },
                    config.camera(),
                    window_config,
                )
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
