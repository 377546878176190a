//! Tableside's rules core.
//!
//! `cards` knows the games and nothing about the outside world: it reads no clock, no random
//! generator, no file and no device. Time, dice and card sightings arrive as inputs, so every match
//! is deterministic and every rule is testable.
//!
//! - [`catalogue`]: the TOML card catalogue format and its loader (errors name file, line, field).
//! - [`core`]: seats, rules and violations, prompts, dice, trackers, outcomes, the match context.
//! - [`game`]: the [`game::Game`] trait every game implements (`setup`, `decide`, `apply`, …).
//! - [`matches`]: the match layer: inputs, refusal or override, undo, free rolls, replay.
//! - [`script`]: the match-script format shared by all games (`docs/match-script.md`).
//! - [`games`]: one module per game.
//!
//! A whole Jaken battle, refused move included:
//!
//! ```
//! use cards::catalogue::Catalogue;
//! use cards::games::jaken::{demo_header, Jaken, Move};
//! use cards::matches::{Input, Match, Rejection};
//!
//! let cat = Catalogue::jaken_demo().unwrap();
//! let mut m = Match::<Jaken>::new(demo_header(&cat, ["Aki", "Ben"], ["lantern", "gale"]).unwrap(), &cat).unwrap();
//! let mut play = |m: &mut Match<Jaken>, mv: Move| -> Result<(), Rejection> {
//!     let p = m.prepare(&Input::Move { mv, override_reason: None })?;
//!     m.commit(p);
//!     Ok(())
//! };
//! play(&mut m, Move::FirstParent { player: 0 }).unwrap();
//! play(&mut m, Move::PassBg { player: 0 }).unwrap();
//! play(&mut m, Move::FaceDown { player: 0 }).unwrap();
//! play(&mut m, Move::FaceDown { player: 1 }).unwrap();
//! // 鬼火王 costs 6: too expensive in battle 1.
//! let refused = play(&mut m, Move::Reveal { player: 0, card: "JD08".into() }).unwrap_err();
//! assert!(matches!(refused, Rejection::Refused { ref violations } if violations[0].rule == "jaken.summon-cost"));
//! play(&mut m, Move::Reveal { player: 0, card: "JD01".into() }).unwrap(); // 灯り小僧 2/1
//! play(&mut m, Move::Reveal { player: 1, card: "JD09".into() }).unwrap(); // 風切り 2/2
//! play(&mut m, Move::Compare {}).unwrap();
//! // Aki: 2 vs DEF 2 → nothing. Ben: 2 vs DEF 1 → Ben takes 1.
//! assert_eq!((m.state().players[0].sb, m.state().players[1].sb), (9, 11));
//! ```

pub mod catalogue;
pub mod core;
pub mod decks;
pub mod game;
pub mod games;
pub mod matches;
pub mod script;
pub mod sightings;
pub mod tags;
#[cfg(any(test, feature = "testing"))]
pub mod testing;
