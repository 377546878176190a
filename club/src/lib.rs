//! `tableside-club`: many tables, one club.
//!
//! Each table's Tableside kiosk keeps its own SQLite log and, when it has a `[club]` section
//! in its config, pushes every match to this server (the wire format: `club_protocol`). The
//! server trusts no push: it replays every log through the rules core (`cards`) with the
//! catalogue version the match names, and counts only the outcomes it derived itself. It
//! keeps everything in PostgreSQL and serves the club's pages.
//!
//! - [`db`]: the connection pool, the migrations (`club/migrations/*.sql`), the settings.
//! - [`server`]: the HTTP API for kiosks and the routes of the pages.
//! - [`push`]: verification and storage of a push (idempotent by kiosk, match and seq).
//! - [`stats`]: club-wide statistics in SQL (standings per game and season, decks, records).
//! - [`web`]: the server-rendered pages, in Japanese and English.
//! - [`admin`]: kiosks and tokens, members, seasons and club nights for the command line.
//! - [`swiss`]: Swiss pairings and standings with tie-breaks.
//! - [`text`]: sentences in Japanese and English for the command line and the log.
//! - `testing` (feature `testing`): a throwaway PostgreSQL cluster and an in-process server.
//!
//! How a shop sets it up: `docs/club.md`.
//!
//! ```
//! use club::swiss::{pair, standings, Game, Result2};
//! // Four players, round 1 played: 1 and 3 won.
//! let games = [
//!     Game { a: 1, b: Some(2), result: Some(Result2::A) },
//!     Game { a: 3, b: Some(4), result: Some(Result2::A) },
//! ];
//! assert_eq!(standings(&[1, 2, 3, 4], &games)[0].points, 3);
//! // Round 2 pairs the winners together, at table 1.
//! let next = pair(7, &[1, 2, 3, 4], &games);
//! assert!(matches!(next[0], (1, Some(3)) | (3, Some(1))));
//! ```

pub mod admin;
pub mod db;
pub mod error;
pub mod push;
pub mod server;
pub mod stats;
pub mod swiss;
#[cfg(feature = "testing")]
pub mod testing;
pub mod text;
pub mod web;

pub use error::ClubError;
