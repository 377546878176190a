//! `tableside-club`: the club server and its administration commands.

use clap::{Parser, Subcommand};
use club::{ClubError, admin, db};
use std::process::ExitCode;

/// The Tableside club server: kiosks push their matches, the club reads standings.
#[derive(Parser, Debug)]
#[command(name = "tableside-club", version, about)]
struct Cli {
    /// The PostgreSQL database: a URL (postgresql://club@localhost/club) or key=value pairs.
    #[arg(long, env = db::DATABASE_ENV, default_value = db::DEFAULT_DATABASE, global = true)]
    database: String,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Creates the schema (or brings it up to date); sets the club's time zone.
    Init {
        /// The club's time zone (IANA name), which decides a match's day and season.
        #[arg(long)]
        timezone: Option<String>,
    },
    /// Kiosks (one per table) and their tokens.
    Kiosk {
        #[command(subcommand)]
        command: KioskCommand,
    },
    /// Club members and the kiosks' player names.
    Member {
        #[command(subcommand)]
        command: MemberCommand,
    },
    /// Seasons: named ranges of days for the standings.
    Season {
        #[command(subcommand)]
        command: SeasonCommand,
    },
    /// Club nights: Swiss rounds of one game.
    Event {
        #[command(subcommand)]
        command: EventCommand,
    },
    /// Serves the API and the pages.
    Serve {
        /// Where to listen (put a TLS reverse proxy in front for other machines: docs/club.md).
        #[arg(long, default_value = "127.0.0.1:8080")]
        listen: String,
        /// Database connections at most.
        #[arg(long, default_value_t = 16)]
        connections: usize,
    },
}

#[derive(Subcommand, Debug)]
enum KioskCommand {
    /// Registers a kiosk and prints its token once (the server keeps only its hash).
    Add {
        /// Its name, e.g. table-1.
        name: String,
    },
    /// Issues a kiosk a new token (the old one stops working).
    Token {
        /// The kiosk.
        name: String,
    },
    /// Lists the kiosks.
    List,
}

#[derive(Subcommand, Debug)]
enum MemberCommand {
    /// Adds a member.
    Add {
        /// The name players enter at the kiosks.
        name: String,
        /// The member number.
        #[arg(long)]
        number: Option<String>,
    },
    /// Lists the members.
    List,
    /// Links a kiosk's player name to a member, once (past matches are recounted).
    Link {
        /// The kiosk.
        kiosk: String,
        /// The player name as entered there.
        player: String,
        /// The member id (`member list`).
        member: i64,
    },
}

#[derive(Subcommand, Debug)]
enum SeasonCommand {
    /// Adds a season.
    Add {
        /// Its name, e.g. "2026 spring".
        name: String,
        /// First day, YYYY-MM-DD.
        from: String,
        /// Last day, YYYY-MM-DD.
        to: String,
    },
}

#[derive(Subcommand, Debug)]
enum EventCommand {
    /// Creates a club night and prints its id.
    Create {
        /// Its name.
        name: String,
        /// The game (jaken, junk-ken, rockman-exe, space-junk, yomi).
        #[arg(long)]
        game: String,
        /// Swiss rounds.
        #[arg(long, default_value_t = 3)]
        rounds: u32,
        /// The players' names, comma separated.
        #[arg(long, value_delimiter = ',')]
        players: Vec<String>,
        /// The kiosks of tables 1, 2, …, comma separated.
        #[arg(long, value_delimiter = ',')]
        tables: Vec<String>,
    },
    /// Pairs the next round (when the current one is complete).
    Pair {
        /// The event id.
        event: i64,
    },
    /// Enters a result by hand: a (the first player won), b or draw.
    Result {
        /// The event id.
        event: i64,
        /// The round.
        round: i32,
        /// The table.
        table: i32,
        /// a, b or draw.
        result: String,
    },
    /// Prints the pairings and standings.
    Show {
        /// The event id.
        event: i64,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(threads)
        .thread_name("club-worker")
        .enable_all()
        .build();
    let runtime = match runtime {
        Ok(r) => r,
        Err(e) => {
            eprintln!("tableside-club: cannot start: {e}");
            return ExitCode::from(1);
        }
    };
    match runtime.block_on(run(cli)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tableside-club: {e}");
            ExitCode::from(if matches!(e, ClubError::Usage(_)) {
                2
            } else {
                1
            })
        }
    }
}

async fn run(cli: Cli) -> Result<(), ClubError> {
    let connections = match &cli.command {
        Command::Serve { connections, .. } => (*connections).max(2),
        _ => 2,
    };
    let pool = db::pool(&cli.database, connections)?;
    if !matches!(cli.command, Command::Init { .. }) {
        db::check_schema(&pool).await?;
    }
    match cli.command {
        Command::Init { timezone } => {
            let applied = db::migrate(&pool).await?;
            if let Some(zone) = timezone {
                db::set_timezone(&pool, &zone).await?;
            }
            if applied.is_empty() {
                println!("the schema is up to date");
            } else {
                println!("applied: {}", applied.join(", "));
            }
        }
        Command::Kiosk { command } => match command {
            KioskCommand::Add { name } => {
                let token = admin::add_kiosk(&pool, &name).await?;
                println!("kiosk {name} registered. Its token (shown only now):\n{token}");
                println!(
                    "Put it in the kiosk's tableside.toml:\n[club]\nurl = \"https://…\"\ntoken = \"{token}\""
                );
            }
            KioskCommand::Token { name } => {
                let token = admin::renew_token(&pool, &name).await?;
                println!("new token of kiosk {name} (the old one no longer works):\n{token}");
            }
            KioskCommand::List => {
                for (name, matches, seen) in admin::list_kiosks(&pool).await? {
                    println!("{name}\t{matches} matches\tlast seen {seen}");
                }
            }
        },
        Command::Member { command } => match command {
            MemberCommand::Add { name, number } => {
                let id = admin::add_member(&pool, &name, number.as_deref()).await?;
                println!("member {id}: {name}");
            }
            MemberCommand::List => {
                for (id, name, number) in admin::list_members(&pool).await? {
                    println!("{id}\t{name}\t{}", number.unwrap_or_default());
                }
            }
            MemberCommand::Link {
                kiosk,
                player,
                member,
            } => {
                admin::link_name(&pool, &kiosk, &player, member).await?;
                println!("{player} at {kiosk} is member {member}");
            }
        },
        Command::Season { command } => match command {
            SeasonCommand::Add { name, from, to } => {
                admin::add_season(&pool, &name, &from, &to).await?;
                println!("season {name}: {from} to {to}");
            }
        },
        Command::Event { command } => event_command(&pool, command).await?,
        Command::Serve {
            listen,
            connections: _,
        } => {
            db::warn_if_rls_bypassed(&pool).await?;
            let listener = tokio::net::TcpListener::bind(&listen).await?;
            println!(
                "tableside-club: listening on http://{}",
                listener.local_addr()?
            );
            club::server::serve(pool, listener, shutdown()).await?;
        }
    }
    Ok(())
}

async fn event_command(
    pool: &deadpool_postgres::Pool,
    command: EventCommand,
) -> Result<(), ClubError> {
    match command {
        EventCommand::Create {
            name,
            game,
            rounds,
            players,
            tables,
        } => {
            let id = admin::create_event(pool, &name, &game, rounds, &players, &tables).await?;
            println!("event {id}: {name}");
        }
        EventCommand::Pair { event } => {
            let round = admin::pair_next_round(pool, event).await?;
            println!("round {round} of event {event} is paired");
            print_event(pool, event).await?;
        }
        EventCommand::Result {
            event,
            round,
            table,
            result,
        } => {
            admin::report_result(pool, event, round, table, &result).await?;
            println!("round {round}, table {table}: {result}");
        }
        EventCommand::Show { event } => print_event(pool, event).await?,
    }
    Ok(())
}

async fn print_event(pool: &deadpool_postgres::Pool, id: i64) -> Result<(), ClubError> {
    let client = pool.get().await?;
    let Some(e) = admin::event(&client, id).await? else {
        return Err(ClubError::Usage(format!("no event {id}")));
    };
    println!(
        "{} ({}, {} rounds, {})",
        e.name, e.game, e.rounds, e.held_on
    );
    for p in &e.pairings {
        let b = p.b.as_ref().map_or("(bye)", |b| b.1.as_str());
        let result = match p.result {
            Some(club::swiss::Result2::A) => p.a.1.as_str(),
            Some(club::swiss::Result2::B) => b,
            Some(club::swiss::Result2::Draw) => "draw",
            None if p.b.is_none() => "bye",
            None => "playing",
        };
        println!(
            "round {} table {} [{}]: {} vs {b} → {result}",
            p.round,
            p.table,
            p.kiosk.as_deref().unwrap_or("no kiosk"),
            p.a.1
        );
    }
    for s in &e.standings {
        println!(
            "{:>3}. {:<20} {:>3} pts  OMW {:>5.1} %  OOMW {:>5.1} %",
            s.rank,
            e.name(s.player),
            s.points,
            s.omw * 100.0,
            s.oomw * 100.0
        );
    }
    Ok(())
}

/// Completes on Ctrl-C or SIGTERM.
async fn shutdown() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
}
