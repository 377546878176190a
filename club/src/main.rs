//! `tableside-club`: the club server and its administration commands.

use clap::{Parser, Subcommand};
use club::text::Lang;
use club::{ClubError, admin, db};
use std::process::ExitCode;

/// The Tableside club server: kiosks push their matches, the club reads standings.
/// Tableside クラブサーバー: キオスクが対戦を送り、クラブが成績を見ます。
#[derive(Parser, Debug)]
#[command(name = "tableside-club", version, about)]
struct Cli {
    /// The PostgreSQL database: a URL (postgresql://club@localhost/club) or key=value pairs /
    /// PostgreSQL データベース: URL か key=value の組
    #[arg(long, env = db::DATABASE_ENV, default_value = db::DEFAULT_DATABASE, global = true)]
    database: String,
    /// The language of the answers: ja or en (else TABLESIDE_LANG, else the locale) /
    /// 表示の言語: ja か en（指定がなければ TABLESIDE_LANG、次にロケール）
    #[arg(long, global = true, value_parser = ["ja", "en"])]
    lang: Option<String>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Creates the schema (or brings it up to date); sets the club's time zone /
    /// スキーマを作成（または更新）し、クラブのタイムゾーンを設定します
    Init {
        /// The club's time zone (IANA name), which decides a match's day and season /
        /// クラブのタイムゾーン（IANA 名）。対戦の日付とシーズンを決めます
        #[arg(long)]
        timezone: Option<String>,
    },
    /// Kiosks (one per table) and their tokens / キオスク（テーブルごとに 1 台）とトークン
    Kiosk {
        #[command(subcommand)]
        command: KioskCommand,
    },
    /// Club members and the kiosks' player names / 会員とキオスクのプレイヤー名
    Member {
        #[command(subcommand)]
        command: MemberCommand,
    },
    /// Seasons: named ranges of days for the standings / シーズン: 成績を数える期間
    Season {
        #[command(subcommand)]
        command: SeasonCommand,
    },
    /// Club nights: Swiss rounds of one game / 大会: 1 つのゲームのスイス式ラウンド
    Event {
        #[command(subcommand)]
        command: EventCommand,
    },
    /// Serves the API and the pages / API とページを提供します
    Serve {
        /// Where to listen (put a TLS reverse proxy in front for other machines: docs/club.md) /
        /// 待ち受けるアドレス（ほかの機械からは TLS のリバースプロキシ経由で: docs/club.md）
        #[arg(long, default_value = "127.0.0.1:8080")]
        listen: String,
        /// Database connections at most / データベース接続の最大数
        #[arg(long, default_value_t = 16)]
        connections: usize,
    },
}

#[derive(Subcommand, Debug)]
enum KioskCommand {
    /// Registers a kiosk and prints its token once (the server keeps only its hash) /
    /// キオスクを登録し、トークンを一度だけ表示します（サーバーはハッシュだけを保存）
    Add {
        /// Its name, e.g. table-1 / 名前（例: table-1）
        name: String,
    },
    /// Issues a kiosk a new token (the old one stops working) /
    /// キオスクに新しいトークンを発行します（古いものは使えなくなります）
    Token {
        /// The kiosk / キオスク
        name: String,
    },
    /// Lists the kiosks / キオスクの一覧
    List,
}

#[derive(Subcommand, Debug)]
enum MemberCommand {
    /// Adds a member / 会員を追加します
    Add {
        /// The name players enter at the kiosks / キオスクで入力される名前
        name: String,
        /// The member number / 会員番号
        #[arg(long)]
        number: Option<String>,
    },
    /// Lists the members / 会員の一覧
    List,
    /// Links a kiosk's player name to a member, once (past matches are recounted) /
    /// キオスクのプレイヤー名を会員に結び付けます（過去の対戦も数え直します）
    Link {
        /// The kiosk / キオスク
        kiosk: String,
        /// The player name as entered there / そのキオスクで入力された名前
        player: String,
        /// The member id (`member list`) / 会員 ID（`member list`）
        member: i64,
    },
}

#[derive(Subcommand, Debug)]
enum SeasonCommand {
    /// Adds a season / シーズンを追加します
    Add {
        /// Its name, e.g. "2026 spring" / 名前（例: "2026 春"）
        name: String,
        /// First day, YYYY-MM-DD / 初日（YYYY-MM-DD）
        from: String,
        /// Last day, YYYY-MM-DD / 最終日（YYYY-MM-DD）
        to: String,
    },
}

#[derive(Subcommand, Debug)]
enum EventCommand {
    /// Creates a club night and prints its id / 大会を作り、その ID を表示します
    Create {
        /// Its name / 名前
        name: String,
        /// The game (jaken, junk-ken, rockman-exe, space-junk, yomi) / ゲーム
        #[arg(long)]
        game: String,
        /// Swiss rounds / スイス式のラウンド数
        #[arg(long, default_value_t = 3)]
        rounds: u32,
        /// The players' names, comma separated / プレイヤーの名前（カンマ区切り）
        #[arg(long, value_delimiter = ',')]
        players: Vec<String>,
        /// The kiosks of tables 1, 2, …, comma separated / テーブル 1, 2, … のキオスク（カンマ区切り）
        #[arg(long, value_delimiter = ',')]
        tables: Vec<String>,
    },
    /// Pairs the next round (when the current one is complete) /
    /// 次のラウンドの組み合わせを出します（今のラウンドが終わってから）
    Pair {
        /// The event id / 大会 ID
        event: i64,
    },
    /// Enters a result by hand: a (the first player won), b or draw /
    /// 結果を手で入れます: a（1 人目の勝ち）、b、draw
    Result {
        /// The event id / 大会 ID
        event: i64,
        /// The round / ラウンド
        round: i32,
        /// The table / テーブル
        table: i32,
        /// a, b or draw / a、b、draw
        result: String,
    },
    /// Prints the pairings and standings / 組み合わせと順位を表示します
    Show {
        /// The event id / 大会 ID
        event: i64,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let lang = cli
        .lang
        .as_deref()
        .and_then(Lang::parse)
        .unwrap_or_else(Lang::from_env);
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(threads)
        .thread_name("club-worker")
        .enable_all()
        .build();
    let runtime = match runtime {
        Ok(r) => r,
        Err(e) => {
            let what = lang.pick("cannot start", "起動できません");
            eprintln!("tableside-club: {what}: {e}");
            return ExitCode::from(1);
        }
    };
    match runtime.block_on(run(cli, lang)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tableside-club: {}", e.text(lang));
            ExitCode::from(if matches!(e, ClubError::Usage(_)) {
                2
            } else {
                1
            })
        }
    }
}

/// Prints one line in the reader's language.
fn say(lang: Lang, en: String, ja: String) {
    println!("{}", lang.pick(en, ja));
}

async fn run(cli: Cli, lang: Lang) -> Result<(), ClubError> {
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
                say(
                    lang,
                    "the schema is up to date".into(),
                    "スキーマは最新です".into(),
                );
            } else {
                let names = applied.join(", ");
                say(
                    lang,
                    format!("applied: {names}"),
                    format!("適用しました: {names}"),
                );
            }
        }
        Command::Kiosk { command } => match command {
            KioskCommand::Add { name } => {
                let token = admin::add_kiosk(&pool, &name).await?;
                say(
                    lang,
                    format!("kiosk {name} registered. Its token (shown only now):\n{token}"),
                    format!(
                        "キオスク {name} を登録しました。トークン（表示は今回だけです）:\n{token}"
                    ),
                );
                say(
                    lang,
                    format!(
                        "Put it in the kiosk's tableside.toml:\n[club]\nurl = \"https://…\"\ntoken = \"{token}\""
                    ),
                    format!(
                        "キオスクの tableside.toml に書いてください:\n[club]\nurl = \"https://…\"\ntoken = \"{token}\""
                    ),
                );
            }
            KioskCommand::Token { name } => {
                let token = admin::renew_token(&pool, &name).await?;
                say(
                    lang,
                    format!("new token of kiosk {name} (the old one no longer works):\n{token}"),
                    format!(
                        "キオスク {name} の新しいトークン（古いものはもう使えません）:\n{token}"
                    ),
                );
            }
            KioskCommand::List => {
                for (name, matches, seen) in admin::list_kiosks(&pool).await? {
                    let seen_en = seen.clone().unwrap_or_else(|| "never".into());
                    let seen_ja = seen.unwrap_or_else(|| "なし".into());
                    say(
                        lang,
                        format!("{name}\t{matches} matches\tlast seen {seen_en}"),
                        format!("{name}\t{matches} 試合\t最終接続 {seen_ja}"),
                    );
                }
            }
        },
        Command::Member { command } => match command {
            MemberCommand::Add { name, number } => {
                let id = admin::add_member(&pool, &name, number.as_deref()).await?;
                say(
                    lang,
                    format!("member {id}: {name}"),
                    format!("会員 {id}: {name}"),
                );
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
                say(
                    lang,
                    format!("{player} at {kiosk} is member {member}"),
                    format!("{kiosk} の {player} は会員 {member} です"),
                );
            }
        },
        Command::Season { command } => match command {
            SeasonCommand::Add { name, from, to } => {
                admin::add_season(&pool, &name, &from, &to).await?;
                say(
                    lang,
                    format!("season {name}: {from} to {to}"),
                    format!("シーズン {name}: {from}〜{to}"),
                );
            }
        },
        Command::Event { command } => event_command(&pool, command, lang).await?,
        Command::Serve {
            listen,
            connections: _,
        } => {
            db::warn_if_rls_bypassed(&pool).await?;
            let listener = tokio::net::TcpListener::bind(&listen).await?;
            let at = listener.local_addr()?;
            say(
                lang,
                format!("tableside-club: listening on http://{at}"),
                format!("tableside-club: http://{at} で待ち受けています"),
            );
            club::server::serve(pool, listener, shutdown()).await?;
        }
    }
    Ok(())
}

async fn event_command(
    pool: &deadpool_postgres::Pool,
    command: EventCommand,
    lang: Lang,
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
            say(
                lang,
                format!("event {id}: {name}"),
                format!("大会 {id}: {name}"),
            );
        }
        EventCommand::Pair { event } => {
            let round = admin::pair_next_round(pool, event).await?;
            say(
                lang,
                format!("round {round} of event {event} is paired"),
                format!("大会 {event} の第{round}ラウンドの組み合わせを出しました"),
            );
            print_event(pool, event, lang).await?;
        }
        EventCommand::Result {
            event,
            round,
            table,
            result,
        } => {
            admin::report_result(pool, event, round, table, &result).await?;
            let ja = match result.as_str() {
                "a" => "1 人目の勝ち",
                "b" => "2 人目の勝ち",
                _ => "引き分け",
            };
            say(
                lang,
                format!("round {round}, table {table}: {result}"),
                format!("第{round}ラウンド テーブル {table}: {ja}"),
            );
        }
        EventCommand::Show { event } => print_event(pool, event, lang).await?,
    }
    Ok(())
}

async fn print_event(pool: &deadpool_postgres::Pool, id: i64, lang: Lang) -> Result<(), ClubError> {
    let client = pool.get().await?;
    let Some(e) = admin::event(&client, id).await? else {
        return Err(admin::no_event(id));
    };
    say(
        lang,
        format!(
            "{} ({}, {} rounds, {})",
            e.name, e.game, e.rounds, e.held_on
        ),
        format!(
            "{}（{}、全{}ラウンド、{}）",
            e.name, e.game, e.rounds, e.held_on
        ),
    );
    for p in &e.pairings {
        let b =
            p.b.as_ref()
                .map_or(lang.pick("(bye)", "（不戦勝）"), |b| b.1.as_str());
        let result = match p.result {
            Some(club::swiss::Result2::A) => p.a.1.as_str(),
            Some(club::swiss::Result2::B) => b,
            Some(club::swiss::Result2::Draw) => lang.pick("draw", "引き分け"),
            None if p.b.is_none() => lang.pick("bye", "不戦勝"),
            None => lang.pick("playing", "対戦中"),
        };
        let kiosk = p
            .kiosk
            .as_deref()
            .unwrap_or(lang.pick("no kiosk", "キオスクなし"));
        let (round, table, a) = (p.round, p.table, &p.a.1);
        say(
            lang,
            format!("round {round} table {table} [{kiosk}]: {a} vs {b} → {result}"),
            format!("第{round}ラウンド テーブル {table} [{kiosk}]: {a} 対 {b} → {result}"),
        );
    }
    for s in &e.standings {
        let (rank, name, points) = (s.rank, e.name(s.player), s.points);
        let (omw, oomw) = (s.omw * 100.0, s.oomw * 100.0);
        say(
            lang,
            format!("{rank:>3}. {name:<20} {points:>3} pts  OMW {omw:>5.1} %  OOMW {oomw:>5.1} %"),
            format!("{rank:>3}. {name:<20} {points:>3} 点  OMW {omw:>5.1} %  OOMW {oomw:>5.1} %"),
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
