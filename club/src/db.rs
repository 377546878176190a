//! The database: the connection pool, the migrations in `club/migrations/`, the settings.
//!
//! Migrations are SQL files compiled into the binary, applied in name order, each in its own
//! transaction together with its row in `club_migrations`, under an advisory lock so two
//! servers starting at once do not both apply one. A database with a migration this build
//! does not know is refused ([`ClubError::TooNew`]).
//!
//! Every statement of the server is a constant string with `$n` parameters: no SQL is built
//! from strings.

use crate::error::ClubError;
use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod};

/// The migration files, in order (name, SQL).
pub const MIGRATIONS: &[(&str, &str)] =
    &[("0001_club", include_str!("../migrations/0001_club.sql"))];

/// An arbitrary constant: the advisory lock key that serialises migrations.
const MIGRATION_LOCK: i64 = 0x5442_434c_5542; // "TBCLUB"

/// The environment variable holding the database URL when `--database` is not given.
pub const DATABASE_ENV: &str = "TABLESIDE_CLUB_DATABASE";

/// The database URL of a default local set-up.
pub const DEFAULT_DATABASE: &str = "postgresql://club@localhost/club";

/// Builds a connection pool for `url` (a `postgresql://` URL or `key=value` pairs).
pub fn pool(url: &str, max_size: usize) -> Result<Pool, ClubError> {
    let config: tokio_postgres::Config = url.parse().map_err(|e: tokio_postgres::Error| {
        ClubError::Url(format!("{e} (expected e.g. {DEFAULT_DATABASE})"))
    })?;
    let mut config = config;
    if config.get_connect_timeout().is_none() {
        config.connect_timeout(std::time::Duration::from_secs(5));
    }
    let manager = Manager::from_config(
        config,
        tokio_postgres::NoTls,
        ManagerConfig {
            recycling_method: RecyclingMethod::Fast,
        },
    );
    Pool::builder(manager)
        .max_size(max_size)
        .wait_timeout(Some(std::time::Duration::from_secs(10)))
        .create_timeout(Some(std::time::Duration::from_secs(5)))
        .runtime(deadpool_postgres::Runtime::Tokio1)
        .build()
        .map_err(|e| ClubError::PoolConfig(e.to_string()))
}

/// Applies the migrations the database lacks; returns the names applied now.
pub async fn migrate(pool: &Pool) -> Result<Vec<&'static str>, ClubError> {
    let mut client = pool.get().await?;
    client
        .batch_execute(
            "CREATE TABLE IF NOT EXISTS club_migrations (
                 name       text        PRIMARY KEY,
                 applied_at timestamptz NOT NULL DEFAULT now()
             )",
        )
        .await?;
    let tx = client.transaction().await?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
        .await?;
    let done = applied_migrations(&tx).await?;
    let mut applied = Vec::new();
    for (name, sql) in MIGRATIONS {
        if done.iter().any(|d| d == name) {
            continue;
        }
        tx.batch_execute(sql)
            .await
            .map_err(|cause| ClubError::Migration { name, cause })?;
        tx.execute("INSERT INTO club_migrations (name) VALUES ($1)", &[name])
            .await
            .map_err(|cause| ClubError::Migration { name, cause })?;
        applied.push(*name);
    }
    tx.commit().await?;
    Ok(applied)
}

/// The migrations recorded in the database, refusing one this build does not know.
async fn applied_migrations(
    client: &impl deadpool_postgres::GenericClient,
) -> Result<Vec<String>, ClubError> {
    let done: Vec<String> = client
        .query("SELECT name FROM club_migrations ORDER BY name", &[])
        .await?
        .iter()
        .map(|r| r.get(0))
        .collect();
    let known: Vec<&str> = MIGRATIONS.iter().map(|(n, _)| *n).collect();
    if let Some(unknown) = done.iter().find(|d| !known.contains(&d.as_str())) {
        return Err(ClubError::TooNew {
            found: unknown.clone(),
            known: known.last().map(|s| (*s).to_owned()).unwrap_or_default(),
        });
    }
    Ok(done)
}

/// Fails with [`ClubError::NotInitialised`] or [`ClubError::TooNew`] unless the schema is
/// exactly this build's.
pub async fn check_schema(pool: &Pool) -> Result<(), ClubError> {
    let client = pool.get().await?;
    let exists: bool = client
        .query_one("SELECT to_regclass('club_migrations') IS NOT NULL", &[])
        .await?
        .get(0);
    if !exists {
        return Err(ClubError::NotInitialised);
    }
    let done = applied_migrations(&client).await?;
    if done.len() < MIGRATIONS.len() {
        return Err(ClubError::NotInitialised);
    }
    Ok(())
}

/// Sets the club's time zone (an IANA name PostgreSQL knows, e.g. `Asia/Tokyo`).
pub async fn set_timezone(pool: &Pool, zone: &str) -> Result<(), ClubError> {
    let client = pool.get().await?;
    let known: bool = client
        .query_one(
            "SELECT EXISTS (SELECT 1 FROM pg_timezone_names WHERE name = $1)",
            &[&zone],
        )
        .await?
        .get(0);
    if !known {
        return Err(crate::error::usage(
            format!(
                "`{zone}` is not a time zone PostgreSQL knows (e.g. Asia/Tokyo, Europe/Berlin, UTC)"
            ),
            format!(
                "`{zone}` は PostgreSQL の知らないタイムゾーンです（例: Asia/Tokyo、Europe/Berlin、UTC）"
            ),
        ));
    }
    client
        .execute(
            "UPDATE settings SET value = $1 WHERE key = 'timezone'",
            &[&zone],
        )
        .await?;
    Ok(())
}

/// Warns (on standard error) when the server's database role bypasses row-level security:
/// a superuser or a `BYPASSRLS` role makes the per-kiosk row checks void.
pub async fn warn_if_rls_bypassed(pool: &Pool) -> Result<bool, ClubError> {
    let client = pool.get().await?;
    let row = client
        .query_one(
            "SELECT rolsuper OR rolbypassrls FROM pg_roles WHERE rolname = current_user",
            &[],
        )
        .await?;
    let bypass: bool = row.get(0);
    if bypass {
        eprintln!(
            "tableside-club: warning: the database role is a superuser or BYPASSRLS, so the \
             per-kiosk row checks do not apply; connect as an ordinary role (docs/club.md)\n\
             tableside-club: 警告: データベースのロールがスーパーユーザーか BYPASSRLS のため、\
             キオスクごとの行の確認が効きません。普通のロールで接続してください（docs/club.md）"
        );
    }
    Ok(bypass)
}
