//! The club server's one error type.

use crate::text::{Lang, Text};

/// Why a club command or request failed.
#[derive(Debug, thiserror::Error)]
pub enum ClubError {
    /// The database refused a statement or could not be reached.
    #[error("database: {}", db_message(.0))]
    Db(#[from] tokio_postgres::Error),
    /// No connection could be taken from the pool (the database is down or the pool is full).
    #[error("database connection: {0}")]
    Pool(#[from] deadpool_postgres::PoolError),
    /// The pool could not be built from the configuration.
    #[error("database configuration: {0}")]
    PoolConfig(String),
    /// The database URL could not be read.
    #[error("database URL: {0}")]
    Url(String),
    /// A migration step failed; the schema stays at the version before it.
    #[error("migration {name}: {}", db_message(.cause))]
    Migration {
        /// The migration file.
        name: &'static str,
        /// Why.
        cause: tokio_postgres::Error,
    },
    /// The database holds a newer schema than this build knows.
    #[error(
        "the database has schema migration {found}, newer than this build ({known}); use a newer tableside-club"
    )]
    TooNew {
        /// The newest migration recorded in the database.
        found: String,
        /// The newest this build has.
        known: String,
    },
    /// The schema is missing: run `tableside-club init` first.
    #[error("the database has no club schema yet: run `tableside-club init` first")]
    NotInitialised,
    /// A command was given something it cannot use (an unknown kiosk, a bad date…), said in
    /// both languages.
    #[error("{0}")]
    Usage(Text),
    /// The network or a file failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// The random generator of the operating system failed (tokens cannot be made).
    #[error("no random numbers from the operating system: {0}")]
    Random(String),
    /// A stored match could not be replayed again (a bug, or a damaged database).
    #[error("stored match {id} cannot be replayed: {reason}")]
    Replay {
        /// The server's match id.
        id: i64,
        /// Why.
        reason: String,
    },
}

/// A [`ClubError::Usage`] from its English and Japanese sentences.
pub fn usage(en: impl Into<String>, ja: impl Into<String>) -> ClubError {
    ClubError::Usage(Text::new(en, ja))
}

impl ClubError {
    /// The error in `lang`. The database's and the operating system's own words stay as they
    /// give them (English); what this server says around them is in `lang`.
    pub fn text(&self, lang: Lang) -> String {
        if lang == Lang::En {
            return self.to_string();
        }
        match self {
            ClubError::Db(e) => format!("データベース: {}", db_message(e)),
            ClubError::Pool(e) => format!("データベースに接続できません: {e}"),
            ClubError::PoolConfig(e) => format!("データベースの設定: {e}"),
            ClubError::Url(e) => format!("データベースの URL: {e}"),
            ClubError::Migration { name, cause } => format!(
                "スキーマの更新 {name} に失敗しました（スキーマは更新前のままです）: {}",
                db_message(cause)
            ),
            ClubError::TooNew { found, known } => format!(
                "データベースのスキーマ（{found}）はこのプログラム（{known}）より新しいものです。新しい tableside-club を使ってください"
            ),
            ClubError::NotInitialised => {
                "データベースにクラブのスキーマがまだありません。先に `tableside-club init` を実行してください".into()
            }
            ClubError::Usage(t) => t.ja.clone(),
            ClubError::Io(e) => format!("入出力エラー: {e}"),
            ClubError::Random(e) => format!("OS から乱数を得られません（トークンを作れません）: {e}"),
            ClubError::Replay { id, reason } => {
                format!("保存された対戦 {id} を再生できません: {reason}")
            }
        }
    }

    /// The error in both languages, for the server's log.
    pub fn both(&self) -> String {
        format!("{} / {}", self.text(Lang::En), self.text(Lang::Ja))
    }

    /// True when the database is unreachable or overloaded (worth retrying), as opposed to a
    /// statement it refused.
    pub fn is_unavailable(&self) -> bool {
        match self {
            ClubError::Pool(_) => true,
            ClubError::Db(e) => e.is_closed() || e.code().is_none(),
            _ => false,
        }
    }

    /// True for a deadlock or a serialization failure, after which the transaction is retried.
    pub fn is_retryable(&self) -> bool {
        matches!(self, ClubError::Db(e) if e.code().is_some_and(|c| {
            *c == tokio_postgres::error::SqlState::T_R_DEADLOCK_DETECTED
                || *c == tokio_postgres::error::SqlState::T_R_SERIALIZATION_FAILURE
        }))
    }
}

/// The database's own words for an error (its message, detail and hint), or the client's.
pub fn db_message(e: &tokio_postgres::Error) -> String {
    match e.as_db_error() {
        Some(d) => {
            let mut m = d.message().to_owned();
            if let Some(detail) = d.detail() {
                m.push_str(" — ");
                m.push_str(detail);
            }
            if let Some(hint) = d.hint() {
                m.push_str(" (");
                m.push_str(hint);
                m.push(')');
            }
            m
        }
        None => e.to_string(),
    }
}
