//! Dice in the app: every source (tower, typed, virtual) becomes a match input.
//!
//! - [`core_roll`] turns a [`hardware::dice::DiceRoll`] into the rules core's
//!   [`Roll`] (a tower roll keeps its device id as text and its sequence number), and
//!   [`roll_input`] wraps it as the JSON input that [`crate::session::Session::submit`] takes.
//! - [`DiceService`] owns the optional dice-tower link ([`TowerDice`], which runs on its own
//!   named thread, `tower-link`, with its own tokio runtime). The link hands over rolls, lost
//!   dice and link health through channels; the UI calls [`DiceService::poll`] once per frame,
//!   and the link thread wakes the window (`request_repaint`) whenever it sends something, so
//!   an idle window never polls. It also holds the virtual dice.
//! - What the tower delivers becomes [`TowerInput`]s for the match log: a fresh die
//!   (`roll`), a **late** die (`late-roll`: it arrived [`LATE_AFTER`] or more after it was
//!   thrown, e.g. thrown while the tower was unplugged), or **lost** dice (`dice-lost`: the
//!   link knows they were thrown but will never come). A late die that could answer an open
//!   request is held until the table decides with one tap ([`DiceService::decide_late`]): it
//!   never answers a request on its own, and the match layer refuses to let it answer one
//!   opened after it was thrown. The throw time goes into the log as the log's length then
//!   ([`DiceService::observe`] keeps the log's growth over time), the core reads no clock.
//! - [`TowerChoice`] is the `--tower PATH|auto` option, with `--line` (or the config file's
//!   `tower_mode = "line"`) for a printing tower ([`TowerMode`]).
//!
//! ```no_run
//! use tableside::dice::{DiceService, TowerChoice, roll_input};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let mut dice = DiceService::start(Some("/dev/ttyACM0".parse::<TowerChoice>()?), None);
//! loop {
//!     for item in dice.poll().rolls {
//!         println!("{}", roll_input(&item)); // session.submit(&roll_input(&item))
//!     }
//!     println!("{}", dice.status().headline);
//!     std::thread::sleep(std::time::Duration::from_millis(100));
//! }
//! # }
//! ```

use crate::ui::i18n::Lang;
use cards::core::{DieSource, PromptKind, Roll, Seat};
use cards::game::MatchHeader;
use cards::matches::{AnyMatch, LateAnswer};
use hardware::dice::link::{
    LinkConfig, LinkError, LinkHealth, LinkState, LossCause, LossReport, Lost, Notify, PortChoice,
    TowerRef, WireMode,
};
use hardware::dice::{DiceError, DiceRoll, RollSource, TowerDice, TowerEvent, VirtualDice};
use std::collections::VecDeque;
use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A tower die that arrives this long or more after it was thrown is late: shown as such,
/// and never taken as the answer to a request without the table's say.
pub const LATE_AFTER: Duration = Duration::from_secs(5);

/// How long a fault the tower reported stays shown after its last occurrence.
pub const FAULT_SHOWN_FOR: Duration = Duration::from_secs(10);

/// How long a message about lost dice stays shown.
pub const LOSS_SHOWN_FOR: Duration = Duration::from_secs(120);

/// How long "a late die was logged as a free roll" stays shown.
const LATE_NOTE_SHOWN_FOR: Duration = Duration::from_secs(30);

/// Which dice tower to use (`--tower PATH`, `--tower auto`, `--tower PATH --line`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TowerChoice {
    /// Find the tower by handshake among the serial ports present (framed protocol).
    Auto,
    /// The tower on this serial port (e.g. `/dev/serial/by-id/…`, or the pty `tower-sim`
    /// prints), speaking the framed protocol.
    Path(PathBuf),
    /// A printing tower (line mode, `PROTOCOL.md` section 9) on this serial port.
    Line(PathBuf),
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
            TowerChoice::Path(p) | TowerChoice::Line(p) => write!(f, "{}", p.display()),
        }
    }
}

/// How the tower talks: the framed protocol, or printed lines (`tower_mode` in the config
/// file, `--line` on the command line).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TowerMode {
    /// Binary frames with acknowledgements (`PROTOCOL.md`, sections 1–8).
    #[default]
    Framed,
    /// `ROLL d6 4` lines (`PROTOCOL.md`, section 9).
    Line,
}

/// A tower mode that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TowerModeError {
    /// Not `framed` or `line`.
    #[error("`{0}` is not a tower mode: give `framed` or `line`")]
    Unknown(String),
    /// Line mode with `auto`: a printing tower cannot answer a search.
    #[error(
        "a line-mode tower cannot be found by `auto` (it cannot answer a search): give its \
         port, e.g. --tower /dev/ttyUSB0 --line"
    )]
    LineNeedsPath,
}

impl FromStr for TowerMode {
    type Err = TowerModeError;

    fn from_str(s: &str) -> Result<TowerMode, TowerModeError> {
        match s.trim().to_ascii_lowercase().as_str() {
            "framed" => Ok(TowerMode::Framed),
            "line" => Ok(TowerMode::Line),
            _ => Err(TowerModeError::Unknown(s.to_owned())),
        }
    }
}

impl TowerChoice {
    /// The same port in this mode.
    ///
    /// # Errors
    /// [`TowerModeError::LineNeedsPath`] for line mode with `auto`.
    pub fn with_mode(self, mode: TowerMode) -> Result<TowerChoice, TowerModeError> {
        match (self, mode) {
            (TowerChoice::Auto, TowerMode::Line) => Err(TowerModeError::LineNeedsPath),
            (TowerChoice::Auto, TowerMode::Framed) => Ok(TowerChoice::Auto),
            (TowerChoice::Path(p) | TowerChoice::Line(p), TowerMode::Line) => {
                Ok(TowerChoice::Line(p))
            }
            (TowerChoice::Path(p) | TowerChoice::Line(p), TowerMode::Framed) => {
                Ok(TowerChoice::Path(p))
            }
        }
    }

    /// How this tower talks.
    pub fn mode(&self) -> TowerMode {
        match self {
            TowerChoice::Line(_) => TowerMode::Line,
            _ => TowerMode::Framed,
        }
    }

    /// The link settings for this choice (default timings).
    pub fn link_config(&self) -> LinkConfig {
        match self {
            TowerChoice::Auto => LinkConfig::discover(),
            TowerChoice::Path(p) => LinkConfig::with_port(PortChoice::Path(p.clone())),
            TowerChoice::Line(p) => LinkConfig {
                wire: WireMode::Text,
                ..LinkConfig::with_port(PortChoice::Path(p.clone()))
            },
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

/// Something that becomes one match input: a die from any source, a late tower die, dice the
/// tower lost.
pub trait AsInput {
    /// The match input, as [`crate::session::Session::submit`] takes it.
    fn input(&self) -> serde_json::Value;
    /// A short description for messages: "d6 = 4 (typed)".
    fn describe(&self) -> String;
}

impl AsInput for Roll {
    fn input(&self) -> serde_json::Value {
        serde_json::json!({ "input": "roll", "roll": self })
    }

    fn describe(&self) -> String {
        format!("d{} = {} ({})", self.sides, self.value, self.source)
    }
}

/// The match input for a roll, `{"input": "roll", "roll": {…}}`, or for any [`AsInput`].
pub fn roll_input(item: &impl AsInput) -> serde_json::Value {
    item.input()
}

/// A tower die that arrived [`LATE_AFTER`] or more after it was thrown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LateRoll {
    /// Names it among the held ones ([`DiceService::decide_late`]).
    pub id: u64,
    /// The die.
    pub roll: Roll,
    /// When it was thrown.
    pub thrown_at: Instant,
    /// When it arrived.
    pub received_at: Instant,
    /// Thrown while the tower was unplugged (the link had no port open).
    pub offline: bool,
    /// The match log's length when it was thrown.
    pub thrown_at_entry: u64,
}

impl LateRoll {
    /// How late it arrived.
    pub fn lateness(&self) -> Duration {
        self.received_at.saturating_duration_since(self.thrown_at)
    }

    fn input_with(&self, answer: Option<&LateAnswer>) -> serde_json::Value {
        let mut v = serde_json::json!({
            "input": "late-roll",
            "roll": self.roll,
            "thrown_at": self.thrown_at_entry,
            "late_ms": u64::try_from(self.lateness().as_millis()).unwrap_or(u64::MAX),
        });
        if let (Some(answer), Some(map)) = (answer, v.as_object_mut()) {
            map.insert(
                "answer".to_owned(),
                serde_json::to_value(answer).unwrap_or(serde_json::Value::Null),
            );
        }
        v
    }
}

/// What the tower link delivered, as it goes into the match log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TowerInput {
    /// A die that arrived in time.
    Roll(Roll),
    /// A late die, with the table's choice (`None`: the match layer's rule, a request that
    /// was open when it was thrown or nothing).
    Late {
        /// The die.
        late: LateRoll,
        /// What it is for.
        answer: Option<LateAnswer>,
    },
    /// Dice the link knows were thrown but will never arrive.
    Lost {
        /// The tower, as roll sources name it.
        device: String,
        /// First lost sequence number (or line number).
        first: u64,
        /// Last; `None`: an unknown number from `first` on.
        last: Option<u64>,
        /// Why, in the log's words.
        reason: String,
    },
}

impl TowerInput {
    fn lost(report: &LossReport) -> TowerInput {
        let device = tower_device_text(&report.tower);
        let boot = match report.tower {
            TowerRef::Framed { boot, .. } => format!(" (boot {boot})"),
            TowerRef::Text => String::new(),
        };
        let reason = match report.cause {
            LossCause::Reset => format!("the tower restarted{boot}"),
            LossCause::HistoryOverflow => {
                format!("the tower's memory filled up while the link was down{boot}")
            }
            LossCause::ResendUnavailable => format!("the tower no longer had them{boot}"),
            LossCause::LineGap => "these lines from the printing tower never arrived".to_owned(),
            LossCause::Line(e) => format!("a line from the printing tower was refused: {e}"),
            LossCause::UncheckedLine => {
                "a line from the printing tower came without its check".to_owned()
            }
        };
        let (first, last) = match report.lost {
            Lost::Seqs { first, last } => (u64::from(first), Some(u64::from(last))),
            Lost::Unknown { after } => (u64::from(after) + 1, None),
        };
        TowerInput::Lost {
            device,
            first,
            last,
            reason,
        }
    }
}

impl AsInput for TowerInput {
    fn input(&self) -> serde_json::Value {
        match self {
            TowerInput::Roll(roll) => roll.input(),
            TowerInput::Late { late, answer } => late.input_with(answer.as_ref()),
            TowerInput::Lost {
                device,
                first,
                last,
                reason,
            } => {
                let mut v = serde_json::json!({
                    "input": "dice-lost", "device": device, "first": first, "reason": reason,
                });
                if let (Some(last), Some(map)) = (last, v.as_object_mut()) {
                    map.insert("last".to_owned(), serde_json::json!(last));
                }
                v
            }
        }
    }

    fn describe(&self) -> String {
        match self {
            TowerInput::Roll(roll) => roll.describe(),
            TowerInput::Late { late, .. } => format!("late {}", late.roll.describe()),
            TowerInput::Lost {
                device,
                first,
                last,
                ..
            } => match last {
                Some(last) => format!("lost dice {device} #{first} to #{last}"),
                None => format!("lost dice {device} from #{first}"),
            },
        }
    }
}

/// What arrived since the last [`DiceService::poll`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DicePoll {
    /// Tower inputs for the match log, oldest first, each once: dice, late dice the table
    /// decided about, lost dice.
    pub rolls: Vec<TowerInput>,
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

/// A message about the tower for the players, shown for a while.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TowerNotice {
    /// What happened and what to do, in words.
    pub text: String,
    /// Dice were lost or a die must be thrown again (shown as a warning).
    pub warn: bool,
}

/// A die prompt seen open at the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpenDiePrompt {
    /// The prompt's id.
    pub id: String,
    /// The die it asks for.
    pub sides: u8,
    /// Who owes it.
    pub player: Option<Seat>,
    /// Its sentence.
    pub text: String,
}

/// The app's dice: the optional tower link and the virtual dice.
#[derive(Debug)]
pub struct DiceService {
    choice: Option<TowerChoice>,
    tower: Option<TowerDice>,
    start_error: Option<DiceError>,
    health: LinkHealth,
    rolls_received: u64,
    rolls_dropped: u64,
    virtual_dice: Result<VirtualDice, DiceError>,
    /// Late dice waiting for the table's decision.
    late: Vec<LateRoll>,
    next_late_id: u64,
    /// Late dice decided, for the next poll.
    decided: Vec<TowerInput>,
    /// Recent losses, newest last.
    losses: VecDeque<LossReport>,
    /// Recent late dice logged as free rolls at once (no request could take them).
    logged_late: VecDeque<LateRoll>,
    /// When the match log reached each length (`observe`).
    timeline: VecDeque<(Instant, u64)>,
    /// The match being observed.
    header: Option<MatchHeader>,
    /// Its open die prompts, oldest first.
    prompts: Vec<OpenDiePrompt>,
    /// `observe` ran since the last poll: a match is on screen.
    observed: bool,
    /// A die this late is late ([`LATE_AFTER`] unless set).
    late_after: Duration,
}

const TIMELINE_MAX: usize = 4096;
const RECENT_MAX: usize = 8;

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
            late: Vec::new(),
            next_late_id: 1,
            decided: Vec::new(),
            losses: VecDeque::new(),
            logged_late: VecDeque::new(),
            timeline: VecDeque::new(),
            header: None,
            prompts: Vec::new(),
            observed: false,
            late_after: LATE_AFTER,
        }
    }

    /// Takes dice this late or later as late (default [`LATE_AFTER`]; tests use less).
    pub fn set_late_after(&mut self, late_after: Duration) {
        self.late_after = late_after;
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
                Err(e) => service.start_error = Some(e),
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

    /// Notes the match on screen: the log's length now (so a late die's throw can be placed
    /// in the log) and its open die requests (so a late die that one could take waits for
    /// the table). Call once per frame while a match is shown.
    pub fn observe(&mut self, game: &dyn AnyMatch) {
        self.observe_at(game, Instant::now());
    }

    fn observe_at(&mut self, game: &dyn AnyMatch, now: Instant) {
        self.observed = true;
        if self.header.as_ref() != Some(game.header()) {
            // Another match: its log has its own lengths, and held dice belong to no request
            // of it.
            self.header = Some(game.header().clone());
            self.timeline.clear();
            self.rolls_dropped += self.late.len() as u64;
            self.late.clear();
        }
        let len = game.len() as u64;
        match self.timeline.back() {
            // The state is the fold of the log: same length, same open requests.
            Some(&(_, last)) if last == len => return,
            Some(&(_, last)) if last > len => {
                self.timeline.clear();
                self.timeline.push_back((now, len));
            }
            _ => {
                if self.timeline.len() >= TIMELINE_MAX {
                    self.timeline.pop_front();
                }
                self.timeline.push_back((now, len));
            }
        }
        self.prompts = game
            .context()
            .prompts
            .into_iter()
            .filter_map(|p| match p.kind {
                PromptKind::Die { sides } => Some(OpenDiePrompt {
                    id: p.id,
                    sides,
                    player: p.player,
                    text: p.text,
                }),
                PromptKind::Choice => None,
            })
            .collect();
    }

    /// The match log's length at `t`, as observed (the earliest length known for earlier
    /// times).
    fn log_len_at(&self, t: Instant) -> u64 {
        self.timeline
            .iter()
            .rev()
            .find(|(at, _)| *at <= t)
            .or_else(|| self.timeline.front())
            .map_or(0, |(_, len)| *len)
    }

    /// The oldest open request a die of these sides could answer.
    pub fn request_for(&self, roll: &Roll) -> Option<&OpenDiePrompt> {
        self.prompts.iter().find(|p| {
            p.sides == roll.sides
                && match (p.player, roll.seat) {
                    (Some(a), Some(b)) => a == b,
                    _ => true,
                }
        })
    }

    /// Takes what the link sent since the last call (never blocks; once per frame).
    pub fn poll(&mut self) -> DicePoll {
        let observed = std::mem::take(&mut self.observed);
        let mut rolls: Vec<TowerInput> = std::mem::take(&mut self.decided);
        let Some(tower) = &mut self.tower else {
            return DicePoll {
                rolls,
                health_changed: false,
            };
        };
        let events = tower.drain_events();
        let health = tower.health();
        for event in events {
            match event {
                TowerEvent::Roll(tr) => {
                    self.rolls_received += 1;
                    let roll = core_roll(&tr.roll);
                    if tr.age() < self.late_after {
                        rolls.push(TowerInput::Roll(roll));
                        continue;
                    }
                    let late = LateRoll {
                        id: self.next_late_id,
                        thrown_at_entry: self.log_len_at(tr.thrown_at),
                        roll,
                        thrown_at: tr.thrown_at,
                        received_at: tr.received_at,
                        offline: tr.offline,
                    };
                    self.next_late_id += 1;
                    if self.request_for(&late.roll).is_some() {
                        // It could answer an open request: the table decides.
                        self.late.push(late);
                    } else {
                        if self.logged_late.len() >= RECENT_MAX {
                            self.logged_late.pop_front();
                        }
                        self.logged_late.push_back(late.clone());
                        rolls.push(TowerInput::Late {
                            late,
                            answer: Some(LateAnswer::Free),
                        });
                    }
                }
                TowerEvent::Lost(report) => {
                    if self.losses.len() >= RECENT_MAX {
                        self.losses.pop_front();
                    }
                    self.losses.push_back(report);
                    // Logged in the match on screen; with none open it is only shown.
                    if observed {
                        rolls.push(TowerInput::lost(&report));
                    }
                }
            }
        }
        let health_changed = health != self.health;
        if health_changed {
            self.health = health;
        }
        DicePoll {
            rolls,
            health_changed,
        }
    }

    /// Late dice waiting for the table's decision, oldest first.
    pub fn late_rolls(&self) -> &[LateRoll] {
        &self.late
    }

    /// The table decided what the held late die `id` is for: it goes to the log with the
    /// next [`Self::poll`]. Unknown ids are ignored (it was decided already).
    pub fn decide_late(&mut self, id: u64, answer: LateAnswer) {
        if let Some(i) = self.late.iter().position(|l| l.id == id) {
            let late = self.late.remove(i);
            self.decided.push(TowerInput::Late {
                late,
                answer: Some(answer),
            });
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

    /// The tower link in plain English words, as of the last [`Self::poll`].
    pub fn status(&self) -> TowerStatus {
        self.status_in(Lang::En, Instant::now())
    }

    /// The tower link in words of `lang`, as of the last [`Self::poll`], at `now`.
    pub fn status_in(&self, lang: Lang, now: Instant) -> TowerStatus {
        let mut details = Vec::new();
        if self.rolls_dropped > 0 {
            details.push(lang.tower_unlogged(self.rolls_dropped));
        }
        let Some(choice) = &self.choice else {
            return TowerStatus {
                headline: lang.tower_none(),
                details: vec![lang.tower_none_hint()],
                tone: TowerTone::Off,
            };
        };
        if let Some(e) = &self.start_error {
            details.insert(
                0,
                match e {
                    DiceError::Link(e) => lang.tower_failure(e, None),
                    other => other.to_string(),
                },
            );
            return TowerStatus {
                headline: lang.tower_start_failed(),
                details,
                tone: TowerTone::Problem,
            };
        }
        let h = &self.health;
        let since = |t: Option<Instant>| t.map(|t| now.saturating_duration_since(t));
        let port = h
            .port
            .as_ref()
            .map(|p| p.display().to_string())
            .unwrap_or_else(|| choice.to_string());
        let (headline, tone) = match (&h.state, &h.last_error) {
            (LinkState::Connected, _) => {
                let id = h.device.as_ref().map(|d| d.id.to_string());
                details.insert(0, lang.tower_port(&port));
                details.insert(1, lang.tower_heartbeat(since(h.last_heartbeat), h.rolls));
                (lang.tower_connected(id.as_deref()), TowerTone::Good)
            }
            (LinkState::Stopped, _) => (lang.tower_stopped(), TowerTone::Off),
            (LinkState::Handshaking, _) => (lang.tower_handshaking(&port), TowerTone::Busy),
            (_, Some(e)) => {
                // The link tries again at most this far apart (its backoff's cap): said as
                // such, not as the wait of the moment, which the window is not woken for.
                let retry = Some(choice.link_config().backoff_max);
                let down = since(h.down_since);
                let headline = match e {
                    LinkError::Open { .. } | LinkError::NotFound { .. } if h.connects == 0 => {
                        lang.tower_not_found(down)
                    }
                    LinkError::Open { .. } | LinkError::NotFound { .. } => {
                        lang.tower_unplugged(down)
                    }
                    LinkError::NoHandshake { .. } => lang.tower_not_a_tower(),
                    _ => lang.tower_connection_lost(down),
                };
                details.insert(0, lang.tower_failure(e, retry));
                (headline, TowerTone::Problem)
            }
            _ => match choice {
                TowerChoice::Auto => (lang.tower_looking(), TowerTone::Busy),
                TowerChoice::Path(p) | TowerChoice::Line(p) => (
                    lang.tower_opening(&p.display().to_string()),
                    TowerTone::Busy,
                ),
            },
        };
        if h.state == LinkState::Connected || h.rolls > 0 {
            let damaged = h.errors.frames();
            if damaged > 0 {
                details.push(lang.tower_damaged(damaged));
            }
            if h.duplicates > 0 {
                details.push(lang.tower_repeats(h.duplicates));
            }
            if h.disconnects > 0 {
                details.push(lang.tower_reconnects(h.disconnects));
            }
            if h.device_resets > 0 {
                details.push(lang.tower_restarts(h.device_resets));
            }
        }
        if h.rolls_lost > 0 || h.losses_unknown > 0 {
            details.push(lang.tower_lost_total(h.rolls_lost, h.losses_unknown));
        }
        TowerStatus {
            headline,
            details,
            tone,
        }
    }

    /// What the players should know now, newest last: dice lost (for
    /// [`LOSS_SHOWN_FOR`]), a fault the tower reported (until [`FAULT_SHOWN_FOR`] after it),
    /// late dice logged as free rolls. Each clears by itself when its time is up.
    pub fn notices(&self, lang: Lang, now: Instant) -> Vec<TowerNotice> {
        let mut out = Vec::new();
        let fresh = |at: Instant, keep: Duration| now.saturating_duration_since(at) < keep;
        for late in &self.logged_late {
            if fresh(late.received_at, LATE_NOTE_SHOWN_FOR) {
                let what = lang.late_roll(
                    &dice_text(&late.roll),
                    now.saturating_duration_since(late.thrown_at),
                    late.offline,
                );
                out.push(TowerNotice {
                    text: lang.late_logged_free(&what),
                    warn: false,
                });
            }
        }
        if let Some(f) = &self.health.last_fault
            && fresh(f.at, FAULT_SHOWN_FOR)
            && let Some(text) = lang.tower_fault(&f.fault)
        {
            // A damaged message from the app is sent again by the link: nothing to do.
            let warn = f.fault.code != hardware::dice::message::FaultCode::HostFrameCorrupt;
            out.push(TowerNotice { text, warn });
        }
        for loss in &self.losses {
            if fresh(loss.at, LOSS_SHOWN_FOR) {
                out.push(TowerNotice {
                    text: lang.tower_loss(loss),
                    warn: true,
                });
            }
        }
        out
    }

    /// When what [`Self::status_in`] and [`Self::notices`] say next changes with time alone
    /// (a duration shown reaches its next value, a notice clears): the window draws again
    /// then. `None`: nothing changes until the link or the match does. How long a tower has
    /// been away is shown in whole minutes, so an absent tower redraws once a minute.
    pub fn next_change_in(&self, now: Instant) -> Option<Duration> {
        let h = &self.health;
        let left = |at: Instant, keep: Duration| {
            keep.checked_sub(now.saturating_duration_since(at))
                .filter(|d| !d.is_zero())
        };
        let mut next: Option<Duration> = None;
        let mut take = |d: Option<Duration>| {
            if let Some(d) = d {
                next = Some(next.map_or(d, |n| n.min(d)));
            }
        };
        // "thrown 20 s ago" on a late die waiting for an answer or just logged.
        if !self.late.is_empty()
            || self
                .logged_late
                .iter()
                .any(|l| left(l.received_at, LATE_NOTE_SHOWN_FOR).is_some())
        {
            take(Some(Duration::from_secs(1)));
        }
        if self.choice.is_some()
            && self.start_error.is_none()
            && h.state != LinkState::Connected
            && let Some(since) = h.down_since
        {
            let down = now.saturating_duration_since(since);
            let into_minute = Duration::new(down.as_secs() % 60, down.subsec_nanos());
            take(Some(Duration::from_secs(60) - into_minute));
        }
        take(
            h.last_fault
                .as_ref()
                .and_then(|f| left(f.at, FAULT_SHOWN_FOR)),
        );
        for loss in &self.losses {
            take(left(loss.at, LOSS_SHOWN_FOR));
        }
        next
    }
}

/// "d6 = 4".
pub fn dice_text(roll: &Roll) -> String {
    format!("d{} = {}", roll.sides, roll.value)
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
    fn tower_choice_parses_and_takes_a_mode() {
        assert_eq!("auto".parse(), Ok(TowerChoice::Auto));
        assert_eq!("AUTO".parse(), Ok(TowerChoice::Auto));
        assert_eq!(
            "/dev/ttyACM0".parse(),
            Ok(TowerChoice::Path("/dev/ttyACM0".into()))
        );
        assert_eq!("  ".parse::<TowerChoice>(), Err(EmptyTowerChoice));
        let line = TowerChoice::Path("/dev/ttyUSB0".into()).with_mode(TowerMode::Line);
        assert_eq!(line, Ok(TowerChoice::Line("/dev/ttyUSB0".into())));
        let line = line.unwrap();
        assert_eq!(line.link_config().wire, WireMode::Text);
        assert_eq!(line.mode(), TowerMode::Line);
        assert_eq!(
            TowerChoice::Auto.with_mode(TowerMode::Line),
            Err(TowerModeError::LineNeedsPath)
        );
        assert_eq!(
            line.with_mode(TowerMode::Framed),
            Ok(TowerChoice::Path("/dev/ttyUSB0".into()))
        );
        assert_eq!("Line".parse(), Ok(TowerMode::Line));
        assert_eq!("framed".parse(), Ok(TowerMode::Framed));
        assert!(matches!(
            "text".parse::<TowerMode>(),
            Err(TowerModeError::Unknown(m)) if m == "text"
        ));
    }

    #[test]
    fn no_tower_says_so_and_rolls_virtual_dice() {
        let mut dice = DiceService::start(None, None);
        assert!(dice.poll().is_empty());
        assert_eq!(dice.status().tone, TowerTone::Off);
        assert_eq!(
            dice.status_in(Lang::Ja, Instant::now()).headline,
            "ダイスタワーなし"
        );
        dice.seed_virtual(3);
        let rolls = dice.roll_virtual(2, 6).unwrap();
        assert_eq!(rolls.len(), 2);
        assert!(
            rolls
                .iter()
                .all(|r| r.source == DieSource::Virtual && (1..=6).contains(&r.value))
        );
    }

    #[test]
    fn tower_inputs_are_the_match_layer_s_inputs() {
        let roll = Roll {
            sides: 6,
            value: 4,
            source: DieSource::Tower {
                device: "7ab1e51de0000001".into(),
                seq: 12,
            },
            seat: None,
            throw: Some(12),
        };
        let now = Instant::now();
        let late = LateRoll {
            id: 1,
            roll: roll.clone(),
            thrown_at: now,
            received_at: now + Duration::from_secs(18),
            offline: true,
            thrown_at_entry: 3,
        };
        let input = TowerInput::Late {
            late,
            answer: Some(LateAnswer::Prompt("hp".into())),
        }
        .input();
        assert_eq!(
            input,
            serde_json::json!({"input": "late-roll", "roll": roll, "thrown_at": 3,
                "late_ms": 18_000, "answer": {"prompt": "hp"}})
        );
        let lost = TowerInput::lost(&LossReport {
            tower: TowerRef::Framed {
                id: DeviceId(0x7AB1_E51D_E000_0001),
                boot: BootId(0x1a2b_3c4d),
            },
            lost: Lost::Unknown { after: 5 },
            cause: LossCause::Reset,
            at: now,
        });
        assert_eq!(
            lost.input(),
            serde_json::json!({"input": "dice-lost", "device": "7ab1e51de0000001",
                "first": 6, "reason": "the tower restarted (boot 1a2b3c4d)"})
        );
        // Both go through the match layer as they are.
        let mut m = cards::testing::asker_match().unwrap();
        let any: &mut dyn AnyMatch = &mut m;
        let p = any.prepare_json(&lost.input()).unwrap();
        any.commit_json(&p.json).unwrap();
        assert_eq!(
            any.log()[0].text,
            "dice lost: 7ab1e51de0000001 lost an unknown number of dice from #6 on (the tower \
             restarted (boot 1a2b3c4d)): throw again any die that did not show"
        );
    }

    fn service_with(health: LinkHealth) -> DiceService {
        let mut dice = DiceService::without_tower();
        dice.choice = Some(TowerChoice::Path("/dev/ttyACM0".into()));
        dice.health = health;
        dice
    }

    #[test]
    fn faults_are_words_in_both_languages_and_clear_when_they_stop() {
        use hardware::dice::link::FaultReport;
        use hardware::dice::message::{Fault, FaultCode};
        let t0 = Instant::now();
        let fault = |code, detail| {
            service_with(LinkHealth {
                last_fault: Some(FaultReport {
                    fault: Fault {
                        boot: BootId(7),
                        code,
                        detail,
                    },
                    at: t0,
                }),
                ..LinkHealth::default()
            })
        };
        let texts = |d: &DiceService, lang, at| -> Vec<String> {
            d.notices(lang, at).into_iter().map(|n| n.text).collect()
        };
        let sensor = fault(FaultCode::SensorFailure, 1);
        let soon = t0 + Duration::from_secs(1);
        assert_eq!(
            texts(&sensor, Lang::En, soon),
            ["The tower could not read a die (die 1): throw it again"]
        );
        assert!(texts(&sensor, Lang::Ja, soon)[0].contains("読めませんでした"));
        assert_eq!(
            sensor.next_change_in(soon),
            Some(FAULT_SHOWN_FOR - Duration::from_secs(1))
        );
        // Gone once the fault stops.
        let later = t0 + FAULT_SHOWN_FOR + Duration::from_millis(1);
        assert!(texts(&sensor, Lang::En, later).is_empty());
        let corrupt = fault(FaultCode::HostFrameCorrupt, 3);
        assert!(
            texts(&corrupt, Lang::En, soon)[0].contains("damaged message from the app (3 so far)")
        );
        // Said, but not as something the table must act on; a die to throw again is.
        assert!(!corrupt.notices(Lang::En, soon)[0].warn);
        assert!(sensor.notices(Lang::En, soon)[0].warn);
        let other = fault(FaultCode::Other(1000), 9);
        assert_eq!(
            texts(&other, Lang::En, soon),
            ["The tower reported fault 1000 (detail 9)"]
        );
        for d in [&sensor, &corrupt, &other] {
            for lang in [Lang::En, Lang::Ja] {
                for t in texts(d, lang, soon) {
                    assert!(!t.contains("Fault {") && !t.contains("BootId"), "{t}");
                }
            }
        }
    }

    #[test]
    fn lost_dice_are_said_with_what_to_do_and_counted() {
        let t0 = Instant::now();
        let mut d = service_with(LinkHealth {
            rolls_lost: 4,
            ..LinkHealth::default()
        });
        let tower = TowerRef::Framed {
            id: DeviceId(1),
            boot: BootId(2),
        };
        for (lost, cause) in [
            (Lost::Seqs { first: 6, last: 9 }, LossCause::Reset),
            (Lost::Unknown { after: 3 }, LossCause::Reset),
            (Lost::Seqs { first: 2, last: 2 }, LossCause::HistoryOverflow),
        ] {
            d.losses.push_back(LossReport {
                tower,
                lost,
                cause,
                at: t0,
            });
        }
        let en: Vec<String> = d
            .notices(Lang::En, t0 + Duration::from_secs(5))
            .into_iter()
            .map(|n| n.text)
            .collect();
        assert_eq!(
            en,
            [
                "The tower restarted and lost rolls #6 to #9: throw those dice again",
                "The tower restarted and cannot say what it lost after roll #3: throw again any die that did not show",
                "The tower's memory filled up while the link was down: roll #2 lost, throw those dice again",
            ]
        );
        let ja = d.notices(Lang::Ja, t0 + Duration::from_secs(5));
        assert!(ja[0].text.contains("ロール #6〜#9") && ja[0].warn);
        assert!(d.notices(Lang::En, t0 + LOSS_SHOWN_FOR).is_empty());
        let status = d.status_in(Lang::En, t0);
        assert!(
            status
                .details
                .iter()
                .any(|l| l.starts_with("4 roll(s) lost in all")),
            "{status:?}"
        );
    }

    #[test]
    fn the_unplugged_view_says_how_long_it_has_been() {
        let t0 = Instant::now();
        let d = service_with(LinkHealth {
            state: LinkState::Waiting(Duration::from_millis(200)),
            connects: 1,
            last_error: Some(LinkError::Open {
                path: "/dev/ttyACM0".into(),
                reason: "No such file or directory".into(),
            }),
            down_since: Some(t0),
            ..LinkHealth::default()
        });
        let at = t0 + Duration::from_secs(18);
        let en = d.status_in(Lang::En, at);
        assert_eq!(
            en.headline,
            "Tower unplugged for under a minute: waiting for it"
        );
        assert_eq!(en.tone, TowerTone::Problem);
        assert_eq!(
            en.details[0],
            "cannot open /dev/ttyACM0: No such file or directory; trying again every 1 s"
        );
        let later = d.status_in(Lang::En, t0 + Duration::from_secs(130));
        assert_eq!(later.headline, "Tower unplugged for 2 min: waiting for it");
        let ja = d.status_in(Lang::Ja, at);
        assert_eq!(
            ja.headline,
            "ダイスタワーが外れて 1 分未満: 戻るのを待っています"
        );
        // Shown in whole minutes: the window draws again when the minute turns, not every
        // second (an absent tower must cost no CPU).
        assert_eq!(d.next_change_in(at), Some(Duration::from_secs(42)));
        assert_eq!(
            d.next_change_in(t0 + Duration::from_millis(60_500)),
            Some(Duration::from_millis(59_500))
        );
        let never = service_with(LinkHealth {
            state: LinkState::Waiting(Duration::from_millis(200)),
            last_error: Some(LinkError::NotFound { tried: 3 }),
            down_since: Some(t0),
            ..LinkHealth::default()
        });
        assert_eq!(
            never.status_in(Lang::En, at).headline,
            "Tower not found · looking for under a minute"
        );
    }
}
