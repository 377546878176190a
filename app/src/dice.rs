//! Dice in the app: every source (tower, typed, virtual) becomes a [`cards::core::Roll`] input.
//!
//! - [`core_roll`] turns a [`hardware::dice::DiceRoll`] into the rules core's
//!   [`Roll`] (a tower roll keeps its device id as text and its sequence number), and
//!   [`roll_input`] wraps it as the JSON input that [`crate::session::Session::submit`] takes.
//! - [`DiceService`] owns the optional dice-tower link ([`TowerDice`], which runs on its own
//!   named thread, `tower-link`, with its own tokio runtime). The link hands over rolls and
//!   link health through channels; the UI calls [`DiceService::poll`] once per frame, and the
//!   link thread wakes the window (`request_repaint`) whenever it sends something, so an idle
//!   window never polls. It also holds the virtual dice.
//! - [`TowerChoice`] is the `--tower PATH|auto` option.
//!
//! ```no_run
//! use tableside::dice::{DiceService, TowerChoice, roll_input};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let mut dice = DiceService::start(Some("/dev/ttyACM0".parse::<TowerChoice>()?), None);
//! loop {
//!     for roll in dice.poll().rolls {
//!         println!("{}", roll_input(&roll)); // session.submit(&roll_input(&roll))
//!     }
//!     println!("{}", dice.status().headline);
//!     std::thread::sleep(std::time::Duration::from_millis(100));
//! }
//! # }
//! ```

use cards::core::{DieSource, Roll};
use hardware::dice::link::{
    LinkConfig, LinkError, LinkHealth, LinkState, Notify, PortChoice, TowerRef,
};
use hardware::dice::{DiceError, DiceRoll, RollSource, TowerDice, VirtualDice};
use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Which dice tower to use (`--tower PATH` or `--tower auto`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TowerChoice {
    /// Find the tower by handshake among the serial ports present.
    Auto,
    /// The tower on this serial port (e.g. `/dev/serial/by-id/…`, or the pty `tower-sim`
    /// prints).
    Path(PathBuf),
}

/// `--tower` was given an empty value.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("--tower wants a serial port path or `auto`")]
pub struct EmptyTowerChoice;

impl FromStr for TowerChoice {
    type Err = EmptyTowerChoice;

    /// `auto` (any case) discovers; anything else is a path (write `./auto` for a file named
    /// `auto`).
    fn from_str(s: &str) -> Result<TowerChoice, EmptyTowerChoice> {
        let s = s.trim();
        if s.is_empty() {
            Err(EmptyTowerChoice)
        } else if s.eq_ignore_ascii_case("auto") {
            Ok(TowerChoice::Auto)
        } else {
            Ok(TowerChoice::Path(PathBuf::from(s)))
        }
    }
}

impl fmt::Display for TowerChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TowerChoice::Auto => f.write_str("auto"),
            TowerChoice::Path(p) => write!(f, "{}", p.display()),
        }
    }
}

impl TowerChoice {
    /// The link settings for this choice (default timings).
    pub fn link_config(&self) -> LinkConfig {
        match self {
            TowerChoice::Auto => LinkConfig::discover(),
            TowerChoice::Path(p) => LinkConfig::with_port(PortChoice::Path(p.clone())),
        }
    }
}

/// The tower's identity as the match log writes it: the device id in hex (`7ab1e51de0000001`),
/// or `text` for a printing tower, which has none.
pub fn tower_device_text(device: &TowerRef) -> String {
    match device {
        TowerRef::Framed { id, .. } => id.to_string(),
        TowerRef::Text => "text".to_owned(),
    }
}

/// The rules core's [`Roll`] for a die from any source. No source knows the seat yet.
///
/// A tower roll keeps the tower's throw id (the sequence number of its throw's first die, with
/// the tower's boot number in the high 32 bits), so the dice of one tower throw share
/// [`Roll::throw`] and answer at most one prompt. Typed and
/// virtual dice get `None` here: the UI gives each entry or tap its throw id.
pub fn core_roll(roll: &DiceRoll) -> Roll {
    let (source, throw) = match &roll.source {
        RollSource::Tower {
            device, seq, throw, ..
        } => (
            DieSource::Tower {
                device: tower_device_text(device),
                seq: u64::from(*seq),
            },
            // Throw numbers restart with the tower's seq at every power-up: the boot goes in
            // the high half so a throw after a reset is never taken for the one before it.
            Some(match device {
                TowerRef::Framed { boot, .. } => u64::from(boot.0) << 32 | u64::from(*throw),
                TowerRef::Text => u64::from(*throw),
            }),
        ),
        RollSource::Typed => (DieSource::Typed, None),
        RollSource::Virtual => (DieSource::Virtual, None),
    };
    Roll {
        sides: roll.sides,
        value: roll.value,
        source,
        seat: None,
        throw,
    }
}

/// The match input for a roll: `{"input": "roll", "roll": {…}}`.
pub fn roll_input(roll: &Roll) -> serde_json::Value {
    serde_json::json!({ "input": "roll", "roll": roll })
}

/// What arrived since the last [`DiceService::poll`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DicePoll {
    /// Tower rolls, oldest first, each delivered once.
    pub rolls: Vec<Roll>,
    /// True when the link's health changed.
    pub health_changed: bool,
}

impl DicePoll {
    /// Whether anything arrived (the window should draw again).
    pub fn is_empty(&self) -> bool {
        self.rolls.is_empty() && !self.health_changed
    }
}

/// How the tower link is doing, for the players.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TowerTone {
    /// No tower was asked for.
    Off,
    /// Opening, looking, shaking hands.
    Busy,
    /// Connected.
    Good,
    /// Not found, lost, failed.
    Problem,
}

/// The tower link in plain words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TowerStatus {
    /// One short line: "Connected to tower 7ab1e51de0000001", "Tower not found".
    pub headline: String,
    /// Further lines: the port, the last heartbeat, rolls received, errors.
    pub details: Vec<String>,
    /// For the colour.
    pub tone: TowerTone,
}

/// The app's dice: the optional tower link and the virtual dice.
#[derive(Debug)]
pub struct DiceService {
    choice: Option<TowerChoice>,
    tower: Option<TowerDice>,
    start_error: Option<String>,
    health: LinkHealth,
    rolls_received: u64,
    rolls_dropped: u64,
    virtual_dice: Result<VirtualDice, DiceError>,
}

impl DiceService {
    /// Dice without a tower (typed and virtual only).
    pub fn without_tower() -> DiceService {
        DiceService {
            choice: None,
            tower: None,
            start_error: None,
            health: LinkHealth::default(),
            rolls_received: 0,
            rolls_dropped: 0,
            virtual_dice: VirtualDice::from_os(),
        }
    }

    /// Starts the tower link for `choice` (none: no tower) on its own thread. `wake` runs on
    /// the link's thread whenever a roll arrives or the health changes (a window passes
    /// `request_repaint`). A link that cannot start is reported by [`Self::status`].
    pub fn start(choice: Option<TowerChoice>, wake: Option<Arc<dyn Fn() + Send + Sync>>) -> Self {
        let mut service = DiceService::without_tower();
        if let Some(choice) = choice {
            let mut config = choice.link_config();
            config.notify = wake.map(Notify);
            match TowerDice::start(config) {
                Ok(tower) => service.tower = Some(tower),
                Err(e) => service.start_error = Some(e.to_string()),
            }
            service.choice = Some(choice);
        }
        service
    }

    /// Starts the tower link for a window: the link thread wakes `ctx` when it sends.
    pub fn for_window(choice: Option<TowerChoice>, ctx: &egui::Context) -> Self {
        let ctx = ctx.clone();
        let wake: Arc<dyn Fn() + Send + Sync> =
            Arc::new(move || ctx.request_repaint_of(egui::ViewportId::ROOT));
        DiceService::start(choice, Some(wake))
    }

    /// Replaces the virtual dice by seeded ones (reproducible tests and demos).
    pub fn seed_virtual(&mut self, seed: u64) {
        self.virtual_dice = Ok(VirtualDice::seeded(seed));
    }

    /// Takes what the link sent since the last call (never blocks; once per frame).
    pub fn poll(&mut self) -> DicePoll {
        let Some(tower) = &mut self.tower else {
            return DicePoll::default();
        };
        let rolls: Vec<Roll> = tower.drain().iter().map(core_roll).collect();
        self.rolls_received += rolls.len() as u64;
        let health = tower.health();
        let health_changed = health != self.health;
        if health_changed {
            self.health = health;
        }
        DicePoll {
            rolls,
            health_changed,
        }
    }

    /// Counts tower rolls that arrived while no match was open (they are not logged).
    pub fn note_dropped(&mut self, count: usize) {
        self.rolls_dropped += count as u64;
    }

    /// Whether a tower was asked for (`--tower`).
    pub fn tower_requested(&self) -> bool {
        self.choice.is_some()
    }

    /// Whether a tower is connected and has said hello.
    pub fn tower_connected(&self) -> bool {
        self.tower.is_some() && self.health.is_connected()
    }

    /// The link's health as of the last [`Self::poll`].
    pub fn health(&self) -> &LinkHealth {
        &self.health
    }

    /// Tower rolls taken from the link so far.
    pub fn rolls_received(&self) -> u64 {
        self.rolls_received
    }

    /// Rolls `count` virtual dice of `sides` sides.
    ///
    /// # Errors
    /// [`DiceError::NoSuchDie`] for fewer than two sides, [`DiceError::Entropy`] if the
    /// operating system gave no randomness to seed the dice.
    pub fn roll_virtual(&mut self, count: usize, sides: u8) -> Result<Vec<Roll>, DiceError> {
        let dice = self.virtual_dice.as_mut().map_err(|e| e.clone())?;
        Ok(dice
            .roll_many(count, sides)?
            .iter()
            .map(core_roll)
            .collect())
    }

    /// The tower link in plain words, as of the last [`Self::poll`].
    pub fn status(&self) -> TowerStatus {
        self.status_at(Instant::now())
    }

    fn status_at(&self, now: Instant) -> TowerStatus {
        let mut details = Vec::new();
        if self.rolls_dropped > 0 {
            details.push(format!(
                "{} tower roll(s) arrived with no match open and were not logged",
                self.rolls_dropped
            ));
        }
        let Some(choice) = &self.choice else {
            return TowerStatus {
                headline: "No dice tower".to_owned(),
                details: vec!["Type the dice or roll virtual ones.".to_owned()],
                tone: TowerTone::Off,
            };
        };
        if let Some(e) = &self.start_error {
            details.insert(0, e.clone());
            return TowerStatus {
                headline: "The tower link could not start".to_owned(),
                details,
                tone: TowerTone::Problem,
            };
        }
        let h = &self.health;
        let port = h
            .port
            .as_ref()
            .map(|p| p.display().to_string())
            .unwrap_or_else(|| choice.to_string());
        let (headline, tone) = match (&h.state, &h.last_error) {
            (LinkState::Connected, _) => {
                let name = h
                    .device
                    .as_ref()
                    .map(|d| format!("Connected to tower {}", d.id))
                    .unwrap_or_else(|| "Connected to a printing tower".to_owned());
                details.insert(0, format!("port {port}"));
                let heartbeat = match h.last_heartbeat {
                    Some(t) => format!(
                        "last heartbeat {} ago",
                        ago(now.saturating_duration_since(t))
                    ),
                    None => "no heartbeat yet".to_owned(),
                };
                details.insert(1, format!("{heartbeat} · {} roll(s) received", h.rolls));
                (name, TowerTone::Good)
            }
            (LinkState::Stopped, _) => ("The tower link is stopped".to_owned(), TowerTone::Off),
            (LinkState::Handshaking, _) => (
                format!("Port {port} open, waiting for the tower to answer"),
                TowerTone::Busy,
            ),
            (_, Some(e)) => {
                let retry = match h.state {
                    LinkState::Waiting(d) => format!("trying again in {}", ago(d)),
                    _ => "trying again now".to_owned(),
                };
                let headline = match e {
                    LinkError::Open { .. } | LinkError::NotFound { .. } if h.connects == 0 => {
                        "Tower not found"
                    }
                    LinkError::Open { .. } | LinkError::NotFound { .. } => {
                        "Tower unplugged: waiting for it"
                    }
                    LinkError::NoHandshake { .. } => "The port does not answer like a tower",
                    _ => "Tower connection lost: reconnecting",
                };
                details.insert(0, format!("{e}; {retry}"));
                (headline.to_owned(), TowerTone::Problem)
            }
            _ => match choice {
                TowerChoice::Auto => ("Looking for the tower".to_owned(), TowerTone::Busy),
                TowerChoice::Path(p) => (
                    format!("Opening the tower at {}", p.display()),
                    TowerTone::Busy,
                ),
            },
        };
        if h.state == LinkState::Connected || h.rolls > 0 {
            let damaged = h.errors.frames();
            if damaged > 0 {
                details.push(format!("{damaged} damaged frame(s) ignored"));
            }
            if h.duplicates > 0 {
                details.push(format!("{} repeated roll(s) dropped", h.duplicates));
            }
            if h.disconnects > 0 {
                details.push(format!("reconnected {} time(s)", h.disconnects));
            }
        }
        if let Some(loss) = &h.last_loss {
            details.push(format!("rolls lost by the tower: {:?}", loss.lost));
        }
        if let Some(fault) = &h.last_fault {
            details.push(format!("tower fault: {:?}", fault.fault));
        }
        TowerStatus {
            headline,
            details,
            tone,
        }
    }
}

/// "0.4 s", "3 s", "2 min".
fn ago(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s < 1.0 {
        format!("{s:.1} s")
    } else if s < 120.0 {
        format!("{} s", d.as_secs())
    } else {
        format!("{} min", d.as_secs() / 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hardware::dice::message::{BootId, DeviceId};

    #[test]
    fn conversion_keeps_the_source() {
        let tower = DiceRoll {
            sides: 6,
            value: 4,
            source: RollSource::Tower {
                device: TowerRef::Framed {
                    id: DeviceId(0x7AB1_E51D_E000_0001),
                    boot: BootId(7),
                },
                seq: 12,
                throw: 11,
                die: 1,
            },
        };
        let roll = core_roll(&tower);
        assert_eq!(
            roll.throw,
            Some(7 << 32 | 11),
            "a tower die keeps its throw, under its boot"
        );
        assert_eq!(
            roll.source,
            DieSource::Tower {
                device: "7ab1e51de0000001".into(),
                seq: 12
            }
        );
        assert_eq!((roll.sides, roll.value, roll.seat), (6, 4, None));
        assert_eq!(
            roll_input(&roll),
            serde_json::json!({"input": "roll", "roll": {"sides": 6, "value": 4,
                "source": {"kind": "tower", "device": "7ab1e51de0000001", "seq": 12},
                "throw": 7u64 << 32 | 11}})
        );
        let typed = DiceRoll {
            sides: 20,
            value: 1,
            source: RollSource::Typed,
        };
        assert_eq!(core_roll(&typed).source, DieSource::Typed);
        assert_eq!(
            core_roll(&typed).throw,
            None,
            "the UI gives typed dice a throw"
        );
        let virtual_die = DiceRoll {
            source: RollSource::Virtual,
            ..typed
        };
        assert_eq!(core_roll(&virtual_die).throw, None);
        let text = DiceRoll {
            source: RollSource::Tower {
                device: TowerRef::Text,
                seq: 3,
                throw: 3,
                die: 0,
            },
            ..typed
        };
        assert_eq!(core_roll(&text).throw, Some(3));
        assert_eq!(
            core_roll(&text).source,
            DieSource::Tower {
                device: "text".into(),
                seq: 3
            }
        );
    }

    #[test]
    fn tower_choice_parses() {
        assert_eq!("auto".parse(), Ok(TowerChoice::Auto));
        assert_eq!("AUTO".parse(), Ok(TowerChoice::Auto));
        assert_eq!(
            "/dev/ttyACM0".parse(),
            Ok(TowerChoice::Path("/dev/ttyACM0".into()))
        );
        assert_eq!("  ".parse::<TowerChoice>(), Err(EmptyTowerChoice));
    }

    #[test]
    fn no_tower_says_so_and_rolls_virtual_dice() {
        let mut dice = DiceService::start(None, None);
        assert!(dice.poll().is_empty());
        assert_eq!(dice.status().tone, TowerTone::Off);
        dice.seed_virtual(3);
        let rolls = dice.roll_virtual(2, 6).unwrap();
        assert_eq!(rolls.len(), 2);
        assert!(
            rolls
                .iter()
                .all(|r| r.source == DieSource::Virtual && (1..=6).contains(&r.value))
        );
    }
}
