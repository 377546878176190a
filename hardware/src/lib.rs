//! Table inputs for Tableside.
//!
//! - [`dice`]: the software dice sources (typed entry, virtual dice) and the adapter that turns the
//!   dice tower's link ([`firmware_bridge::link`]) into the same [`dice::DiceRoll`]s.
//! - [`vision`]: frame sources (a directory of images, a renderer of tagged cards on a mat, and a
//!   V4L2 camera behind the `camera` feature) and the QR detector (docs/vision.md).
//! - [`gpio`]: the Pi kiosk's button/LED panel logic, with a fake pin backend and `rppal` behind
//!   the `gpio` feature.
//!
//! Every roll carries its [`dice::RollSource`], so the match log can tell a tower's die from
//! a typed one.
//!
//! ```
//! use hardware::dice::{parse_entry, RollSource, VirtualDice};
//!
//! // A player types what the dice show; the prompt asked for d6s.
//! let typed = parse_entry("3 5", Some(6)).unwrap();
//! assert_eq!(typed.iter().map(|r| r.value).collect::<Vec<_>>(), vec![3, 5]);
//! assert!(typed.iter().all(|r| r.source == RollSource::Typed && r.sides == 6));
//!
//! // Or lets the app roll.
//! let mut dice = VirtualDice::seeded(42);
//! let roll = dice.roll(20).unwrap();
//! assert!((1..=20).contains(&roll.value));
//! ```

pub mod dice;
pub mod gpio;
pub mod vision;
