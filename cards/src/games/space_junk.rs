//! Space Junk: 2–6 contestants of a reality-TV show fly junk-built ships for six rounds of move,
//! attack and search; the most fame wins.
//!
//! Follows `rules/space-junk.md` (the digest) and the seed `002_d5d1b6b368185ac0.txt`; how the app
//! reads each gap is written in `docs/rules-space_junk.md`. Each round runs the move phase (every
//! ship, in turn order from the first player: choose a ring, `*`-Move boosts, move exactly the Move
//! value, +5 fame per orbit, then maybe ram a ship on the same space from round 2), the attack
//! phase (one optional attack each: d6 + Attack + `*` boosts − range, one hit per full 5, +3 fame
//! per hit, one location die per hit), the search phase (draw min(Search, ring limit), discard the
//! damaged cards, rebuild the ship, the rest to cargo) and cameo time; then the first-player marker
//! moves clockwise (to the next seat). After round 6 the fame on every junk card is added; a tie is
//! settled by the best ship each tied player can build from their own junk.
//!
//! The app never rolls: every die is asked for with a prompt and arrives as an input. The junk deck
//! is physical and shuffled, so a draw names the cards drawn; the app checks their number and
//! keeps track of every card (deck, cooler, ships, cargo holds). Character abilities and card texts
//! are resolved by the players and entered with the `effect` move.
//!
//! ```
//! use cards::catalogue::Catalogue;
//! use cards::core::GameId;
//! use cards::games::space_junk::{demo_header, Move, SpaceJunk};
//! use cards::matches::{Input, Match};
//! let cat = Catalogue::builtin(GameId::SpaceJunk).unwrap();
//! let header = demo_header(&cat, &["Aki", "Ben"], &["SJ01", "SJ05"]).unwrap();
//! let mut m = Match::<SpaceJunk>::new(header, &cat).unwrap();
//! for mv in [Move::FirstPlayer { player: 0 }, Move::MoveShip { player: 0, ring: 1, spaces: None }] {
//!     let p = m.prepare(&Input::Move { mv, override_reason: None }).unwrap();
//!     m.commit(p);
//! }
//! assert_eq!(m.state().players[0].position, 3); // the Retired Astronaut has Move 3
//! ```

use crate::catalogue::space_junk::{Slot, SpaceJunkCard, Stat};
use crate::catalogue::{CardData, Catalogue};
use crate::core::{
    Decision, GameId, Impossible, MatchCtx, Outcome, PhaseView, Prompt, PromptKind, Roll, Seat,
    Tracker, TrackerId, Violation,
};
use crate::game::{Game, MatchHeader, PlayerConfig, SetupError};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Rounds in a game.
pub const ROUNDS: u32 = 6;
/// Fewest players.
pub const MIN_PLAYERS: usize = 2;
/// Most players (six ship boards).
pub const MAX_PLAYERS: usize = 6;
/// Fame per completed orbit.
pub const ORBIT_FAME: i32 = 5;
/// Fame per attack hit.
pub const HIT_FAME: i32 = 3;
/// One hit for every full this-many points of the attack result.
pub const HIT_STEP: i32 = 5;
/// Rings on the board (1 inner, 2 middle, 3 outer).
pub const RINGS: u8 = 3;
/// Largest number a single entry may change (spaces, range, effect changes).
pub const MAX_CHANGE: i32 = 99;
/// The longest range offered on the attack buttons (a script may give any range).
pub const OFFERED_RANGE: u32 = 8;

/// The marker type of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpaceJunk;

/// House rules: the gaps of `rules/space-junk.md` §10 that players could settle differently, and
/// the board data the seed does not print.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Rules {
    /// §10 #2: spaces of the inner ring (ring 1), counted on the physical board.
    pub ring_length_inner: u16,
    /// §10 #2: spaces of the middle ring (ring 2).
    pub ring_length_middle: u16,
    /// §10 #2: spaces of the outer ring (ring 3).
    pub ring_length_outer: u16,
    /// §10 #1: search limit of the inner ring; `None`: no cap until entered.
    pub search_limit_inner: Option<u8>,
    /// §10 #1: search limit of the middle ring.
    pub search_limit_middle: Option<u8>,
    /// §10 #1: search limit of the outer ring.
    pub search_limit_outer: Option<u8>,
    /// §10 #7: the ring whose starting line every ship starts on (1 inner … 3 outer).
    pub start_ring: u8,
    /// §10 #10: a ship moves exactly its Move value (otherwise: up to it).
    pub exact_movement: bool,
    /// §10 #8: the first round in which ramming is allowed ("no ramming on the first turn").
    pub ram_from_round: u32,
    /// §10 #8: a ram winner may also take the loser's fuselage card.
    pub ram_can_take_fuselage: bool,
    /// §10 #9: ship values below 0 count as 0.
    pub floor_stats_at_zero: bool,
    /// §7 / §10 #16: the tie-break's best ship counts the character's values.
    pub tie_break_counts_character: bool,
    /// §3 / §8: the app pauses for cameo time after each search phase (otherwise the round ends
    /// after the last search).
    pub cameo: bool,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            ring_length_inner: 16,
            ring_length_middle: 24,
            ring_length_outer: 32,
            search_limit_inner: None,
            search_limit_middle: None,
            search_limit_outer: None,
            start_ring: 1,
            exact_movement: true,
            ram_from_round: 2,
            ram_can_take_fuselage: false,
            floor_stats_at_zero: true,
            tie_break_counts_character: true,
            cameo: true,
        }
    }
}

impl Rules {
    /// Spaces of a ring (1..=3).
    pub fn ring_length(&self, ring: u8) -> u32 {
        u32::from(match ring {
            1 => self.ring_length_inner,
            2 => self.ring_length_middle,
            _ => self.ring_length_outer,
        })
        .max(1)
    }

    /// Search limit of a ring (1..=3), if configured.
    pub fn search_limit(&self, ring: u8) -> Option<u8> {
        match ring {
            1 => self.search_limit_inner,
            2 => self.search_limit_middle,
            _ => self.search_limit_outer,
        }
    }

    fn check(&self) -> Result<(), String> {
        for (name, l) in [
            ("ring_length_inner", self.ring_length_inner),
            ("ring_length_middle", self.ring_length_middle),
            ("ring_length_outer", self.ring_length_outer),
        ] {
            if !(1..=999).contains(&l) {
                return Err(format!("{name} must be 1..=999, not {l}"));
            }
        }
        for (name, l) in [
            ("search_limit_inner", self.search_limit_inner),
            ("search_limit_middle", self.search_limit_middle),
            ("search_limit_outer", self.search_limit_outer),
        ] {
            if l == Some(0) {
                return Err(format!(
                    "{name} must be at least 1 (leave it out for no cap)"
                ));
            }
        }
        if !(1..=RINGS).contains(&self.start_ring) {
            return Err(format!("start_ring must be 1..=3, not {}", self.start_ring));
        }
        if self.ram_from_round < 1 {
            return Err("ram_from_round must be at least 1".into());
        }
        Ok(())
    }
}

/// A space of a ship board: slots 1–6 (1–2 Move, 3–4 Attack, 5–6 Search; die face n hits slot
/// n, §10 #5) or the fuselage. Written as the number `1`…`6` or the word `"fuselage"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Space {
    /// Slot 1..=6.
    Slot(u8),
    /// The fuselage: adds all three values; attacks cannot hit it.
    Fuselage,
}

impl Space {
    /// Every space, slots first.
    pub const ALL: [Space; 7] = [
        Space::Slot(1),
        Space::Slot(2),
        Space::Slot(3),
        Space::Slot(4),
        Space::Slot(5),
        Space::Slot(6),
        Space::Fuselage,
    ];

    /// What a card adds in this space.
    pub fn kind(self) -> Slot {
        match self {
            Space::Slot(1 | 2) => Slot::Move,
            Space::Slot(3 | 4) => Slot::Attack,
            Space::Slot(_) => Slot::Search,
            Space::Fuselage => Slot::Fuselage,
        }
    }

    /// Index in [`PlayerState::spaces`].
    pub fn index(self) -> usize {
        match self {
            Space::Slot(n) => usize::from(n.clamp(1, 6)) - 1,
            Space::Fuselage => 6,
        }
    }

    /// A label for the players, e.g. "slot 3 (Attack)".
    pub fn label(self) -> String {
        match self {
            Space::Slot(n) => format!("slot {n} ({})", slot_name(self.kind())),
            Space::Fuselage => "the fuselage".into(),
        }
    }
}

fn slot_name(slot: Slot) -> &'static str {
    match slot {
        Slot::Move => "Move",
        Slot::Attack => "Attack",
        Slot::Search => "Search",
        Slot::Fuselage => "fuselage",
    }
}

fn stat_name(stat: Stat) -> &'static str {
    match stat {
        Stat::Move => "Move",
        Stat::Attack => "Attack",
        Stat::Search => "Search",
    }
}

impl Serialize for Space {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Space::Slot(n) => s.serialize_u8(*n),
            Space::Fuselage => s.serialize_str("fuselage"),
        }
    }
}

#[derive(Deserialize)]
#[serde(untagged)]
enum RawSpace {
    Number(i64),
    Text(String),
}

impl<'de> Deserialize<'de> for Space {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let bad = |what: &str| {
            D::Error::custom(format!("a ship space is 1..=6 or \"fuselage\", not {what}"))
        };
        match RawSpace::deserialize(d)? {
            RawSpace::Number(n @ 1..=6) => Ok(Space::Slot(n as u8)),
            RawSpace::Number(n) => Err(bad(&n.to_string())),
            RawSpace::Text(t) => match t.trim() {
                "fuselage" | "f" => Ok(Space::Fuselage),
                other => match other.parse::<u8>() {
                    Ok(n @ 1..=6) => Ok(Space::Slot(n)),
                    _ => Err(bad(&format!("`{other}`"))),
                },
            },
        }
    }
}

#[derive(Deserialize)]
#[serde(untagged)]
enum RawList {
    List(Vec<String>),
    Text(String),
}

/// Reads a card list written as a JSON array or as one comma-separated text (`SJ10,SJ22`, as a
/// match script writes it).
fn card_list<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    Ok(match RawList::deserialize(d)? {
        RawList::List(v) => v,
        RawList::Text(t) => t
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect(),
    })
}

/// Move, Attack and Search of a ship.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShipStats {
    /// Move.
    #[serde(rename = "move")]
    pub movement: i32,
    /// Attack.
    pub attack: i32,
    /// Search.
    pub search: i32,
}

impl ShipStats {
    /// One value.
    pub fn get(&self, stat: Stat) -> i32 {
        match stat {
            Stat::Move => self.movement,
            Stat::Attack => self.attack,
            Stat::Search => self.search,
        }
    }

    fn get_mut(&mut self, stat: Stat) -> &mut i32 {
        match stat {
            Stat::Move => &mut self.movement,
            Stat::Attack => &mut self.attack,
            Stat::Search => &mut self.search,
        }
    }

    /// Move + Attack + Search.
    pub fn total(&self) -> i32 {
        self.movement + self.attack + self.search
    }

    fn floored(self) -> Self {
        ShipStats {
            movement: self.movement.max(0),
            attack: self.attack.max(0),
            search: self.search.max(0),
        }
    }
}

/// The card data the game needs, copied from the catalogue at setup.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardInfo {
    /// English name.
    pub name_en: String,
    /// Japanese name.
    pub name_ja: String,
    /// Printed text (abilities and effects the players resolve).
    pub text: String,
    /// Character or junk data.
    pub data: SpaceJunkCard,
}

/// Where a card is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Place {
    /// The junk deck.
    Deck,
    /// The discard pile (the space cooler).
    Discard,
    /// Drawn this search and not placed yet.
    Drawn(Seat),
    /// A player's cargo hold.
    Cargo(Seat),
    /// A space of a player's ship.
    Ship(Seat, Space),
}

/// One player's side of the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerState {
    /// The name at the table.
    pub name: String,
    /// The character card id, once dealt.
    pub character: Option<String>,
    /// Uses of the character's ability left, when the card limits them.
    pub ability_uses_left: Option<u8>,
    /// Fame on the points track (junk fame is added at the end).
    pub fame: i32,
    /// Ring 1 (inner) … 3 (outer).
    pub ring: u8,
    /// Spaces clockwise from the ring's starting line, 0..ring length.
    pub position: u32,
    /// Orbits completed.
    pub orbits: u32,
    /// Cards in slots 1–6 (indices 0–5) and the fuselage (index 6).
    pub spaces: [Option<String>; 7],
    /// The cargo hold, sorted.
    pub cargo: Vec<String>,
    /// Cards drawn this search, not yet placed.
    pub drawn: Vec<String>,
    /// Manual changes to Move / Attack / Search (abilities, card texts, corrections).
    pub modifiers: ShipStats,
}

impl PlayerState {
    /// The card in a space.
    pub fn at(&self, space: Space) -> Option<&str> {
        self.spaces.get(space.index()).and_then(|c| c.as_deref())
    }

    /// Equipped cards with their spaces.
    pub fn equipped(&self) -> impl Iterator<Item = (Space, &str)> {
        Space::ALL
            .into_iter()
            .filter_map(|s| self.at(s).map(|c| (s, c)))
    }
}

/// The attack being resolved.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttackState {
    /// Who attacks.
    pub attacker: Seat,
    /// The target ship.
    pub target: Seat,
    /// Spaces between them, counted on the board.
    pub range: u32,
    /// The attack die, once rolled.
    pub roll: Option<u8>,
    /// Hits, once settled.
    pub hits: Option<u32>,
    /// Hit location dice so far.
    pub locations: Vec<u8>,
    /// Cards damaged by this attack.
    pub damaged: Vec<String>,
}

/// The last attack, for the table screen.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttackReport {
    /// Round.
    pub round: u32,
    /// Attacker.
    pub attacker: Seat,
    /// Target.
    pub target: Seat,
    /// Attack die.
    pub roll: u8,
    /// Attack value with this turn's boosts.
    pub attack: i32,
    /// Range.
    pub range: u32,
    /// d6 + Attack − range.
    pub total: i32,
    /// Hits (each +3 fame).
    pub hits: u32,
    /// Location dice.
    pub locations: Vec<u8>,
    /// Cards damaged.
    pub damaged: Vec<String>,
}

/// A ram being resolved.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RamState {
    /// The moving ship.
    pub rammer: Seat,
    /// The rammed ship.
    pub target: Seat,
    /// The rammer's die.
    pub rammer_roll: Option<u8>,
    /// The target's die.
    pub target_roll: Option<u8>,
}

/// The last ram, for the table screen.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RamReport {
    /// Round.
    pub round: u32,
    /// Rammer.
    pub rammer: Seat,
    /// Target.
    pub target: Seat,
    /// d6 + 1 + R cards of the rammer.
    pub rammer_total: i32,
    /// d6 + R cards of the target.
    pub target_total: i32,
    /// The higher total; `None` on a tie.
    pub winner: Option<Seat>,
}

/// Where the match stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "kebab-case")]
pub enum Step {
    /// Characters are dealt and the first player is chosen.
    Setup,
    /// Move phase: this ship may boost, then chooses a ring and moves.
    Move {
        /// Whose turn.
        seat: Seat,
    },
    /// Move phase: the ship ended on another ship's space and may ram one of them.
    Ram {
        /// Whose turn.
        seat: Seat,
    },
    /// Move phase: both ram dice are rolled.
    RamDice,
    /// Move phase: the ram winner may take one piece of junk.
    RamTake {
        /// The higher roll.
        winner: Seat,
        /// The lower roll.
        loser: Seat,
    },
    /// Attack phase: this ship may attack another (boosts allowed).
    Attack {
        /// Whose turn.
        seat: Seat,
    },
    /// Attack phase: the attack die is rolled.
    AttackDie,
    /// Attack phase: after the roll the attacker may still damage `*`-Attack cards, then confirms.
    AttackBoost,
    /// Attack phase: one location die per hit.
    HitDice,
    /// Search phase: this ship may boost, then draws.
    Search {
        /// Whose turn.
        seat: Seat,
    },
    /// Search phase: the damaged cards are gone; the player rebuilds the ship.
    Rebuild {
        /// Whose turn.
        seat: Seat,
    },
    /// Cameo time: each player tells a story, from the first player.
    Cameo,
    /// The game is over.
    Over,
}

/// The three phases with turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Move,
    Attack,
    Search,
}

impl Phase {
    fn stat(self) -> Stat {
        match self {
            Phase::Move => Stat::Move,
            Phase::Attack => Stat::Attack,
            Phase::Search => Stat::Search,
        }
    }
}

/// The whole state of a Space Junk match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// House rules and board data.
    pub rules: Rules,
    /// The players by seat (clockwise).
    pub players: Vec<PlayerState>,
    /// Card data by id (the junk deck and every character of the catalogue).
    pub cards: Arc<BTreeMap<String, CardInfo>>,
    /// Round 1..=6 (0 during setup).
    pub round: u32,
    /// The first player this round.
    pub first: Seat,
    /// Current step.
    pub step: Step,
    /// The junk deck (unordered: the physical deck is shuffled), sorted.
    pub deck: Vec<String>,
    /// The discard pile, sorted.
    pub discard: Vec<String>,
    /// Damaged (turned) cards, sorted.
    pub damaged: Vec<String>,
    /// The player whose turn it is in the current phase.
    pub turn_seat: Option<Seat>,
    /// `*` boosts taken this turn.
    pub boosts: ShipStats,
    /// The attack being resolved.
    pub attack: Option<AttackState>,
    /// The ram being resolved.
    pub ram: Option<RamState>,
    /// The last attack.
    pub last_attack: Option<AttackReport>,
    /// The last ram.
    pub last_ram: Option<RamReport>,
}

/// A move at the Space Junk table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum Move {
    /// Setup: the character card dealt (at random, by the table) to a player.
    DealCharacter {
        /// Who receives it.
        player: Seat,
        /// The character card id.
        card: String,
    },
    /// Setup: the first player, chosen at random by the table; round 1 begins.
    FirstPlayer {
        /// The first player.
        player: Seat,
    },
    /// Damage a `*` card of one's own ship for its one-time boost in the current phase (Move +3
    /// before moving, Attack +4 even after the roll, Search +2 before drawing).
    Boost {
        /// Whose card.
        player: Seat,
        /// The card.
        card: String,
    },
    /// Move phase: choose a ring and move clockwise.
    MoveShip {
        /// Who moves.
        player: Seat,
        /// Ring 1 (inner) … 3 (outer).
        ring: u8,
        /// Spaces moved; by default the Move value (with this turn's boosts).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        spaces: Option<u32>,
    },
    /// Move phase: ram a ship on the same space.
    Ram {
        /// The rammer.
        player: Seat,
        /// The rammed ship.
        target: Seat,
    },
    /// Move phase: do not ram.
    NoRam {
        /// Who passes.
        player: Seat,
    },
    /// Move phase: the ram winner takes one card from the loser's ship.
    TakeJunk {
        /// The winner.
        player: Seat,
        /// The card taken.
        card: String,
    },
    /// Move phase: the ram winner takes nothing.
    NoTake {
        /// The winner.
        player: Seat,
    },
    /// Attack phase: fire at another ship.
    Attack {
        /// The attacker.
        player: Seat,
        /// The target.
        target: Seat,
        /// Spaces between the ships, counted on the board.
        range: u32,
    },
    /// Attack phase: do not attack.
    NoAttack {
        /// Who passes.
        player: Seat,
    },
    /// Attack phase: no more `*` boosts; settle the hits.
    ConfirmHits {
        /// The attacker.
        player: Seat,
    },
    /// Search phase: the cards drawn from the junk deck (after a reshuffle, from the new deck).
    Draw {
        /// Who draws.
        player: Seat,
        /// The card ids (a list, or one text `SJ10,SJ22`).
        #[serde(deserialize_with = "card_list")]
        cards: Vec<String>,
    },
    /// Search phase: put a drawn, cargo or ship card into a space (the card there goes to cargo, or
    /// swaps places with a card moved from another space).
    Equip {
        /// Whose ship.
        player: Seat,
        /// The card.
        card: String,
        /// The space: 1–6 or `fuselage`.
        space: Space,
    },
    /// Search phase: take a card off the ship into the cargo hold.
    Unequip {
        /// Whose ship.
        player: Seat,
        /// The card.
        card: String,
    },
    /// Search phase: the ship is built; unused drawn cards go to the cargo hold.
    FinishSearch {
        /// Who is done.
        player: Seat,
    },
    /// Cameo time is over: the first-player marker moves on and the next round begins.
    EndRound,
    /// The result of a character ability or card text the players resolved.
    Effect {
        /// Whose ability or card.
        player: Seat,
        /// Fame gained (negative: lost).
        #[serde(default)]
        fame: i32,
        /// Change to the ship's Move (stays until changed back).
        #[serde(default, rename = "move")]
        movement: i32,
        /// Change to the ship's Attack.
        #[serde(default)]
        attack: i32,
        /// Change to the ship's Search.
        #[serde(default)]
        search: i32,
        /// Extra spaces moved clockwise in the current ring (orbits count).
        #[serde(default)]
        spaces: u32,
        /// A card of this player's that is no longer damaged.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        repair: Option<String>,
        /// Counts one use of the character's limited ability.
        #[serde(default)]
        ability: bool,
        /// What happened, in the players' words.
        #[serde(default)]
        note: String,
    },
}

/// One change of a Space Junk state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    /// A character card was dealt.
    CharacterDealt(Seat, String),
    /// The first player is now this seat.
    FirstIs(Seat),
    /// A round begins.
    RoundBegan(u32),
    /// A player's turn in a phase begins: boosts reset.
    TurnBegan(Seat),
    /// The match moves to a step.
    StepTo(Step),
    /// A `*` card was damaged for a boost.
    Boosted {
        /// The player.
        seat: Seat,
        /// The card.
        card: String,
        /// Which value.
        stat: Stat,
        /// How much.
        amount: i32,
    },
    /// A ship changed ring and moved.
    Moved {
        /// The ship.
        seat: Seat,
        /// Its ring.
        ring: u8,
        /// Its new position.
        position: u32,
        /// Orbits completed by this move.
        orbits: u32,
    },
    /// Fame changed.
    Fame(Seat, i32),
    /// A card moved.
    CardMoved {
        /// The card.
        card: String,
        /// From.
        from: Place,
        /// To.
        to: Place,
    },
    /// The discard pile was shuffled into a new junk deck.
    Reshuffled,
    /// A card was damaged (turned 90°).
    Damaged(String),
    /// A card is no longer damaged.
    Repaired(String),
    /// A ram was declared.
    RamDeclared(Seat, Seat),
    /// A ram die was rolled by this seat.
    RamRolled(Seat, u8),
    /// A ram was settled.
    RamSettled(RamReport),
    /// An attack was declared.
    AttackDeclared(Seat, Seat, u32),
    /// The attack die.
    AttackRolled(u8),
    /// The hits of the attack.
    Hits(u32),
    /// A location die.
    LocationRolled(u8),
    /// The attack is over.
    AttackSettled(AttackReport),
    /// Manual or effect change of the ship's values.
    Modifiers(Seat, ShipStats),
    /// One use of the character's ability.
    AbilityUsed(Seat),
    /// Manual: set fame.
    SetFame(Seat, i32),
    /// Manual: set ring and position.
    SetPlace(Seat, u8, u32),
    /// Manual: set orbits.
    SetOrbits(Seat, u32),
    /// Manual: set ability uses left.
    SetAbilityUses(Seat, u8),
    /// Manual: set the round.
    SetRound(u32),
}

fn insert_sorted(v: &mut Vec<String>, card: &str) {
    if let Err(i) = v.binary_search_by(|c| c.as_str().cmp(card)) {
        v.insert(i, card.to_owned());
    }
}

fn remove_sorted(v: &mut Vec<String>, card: &str) {
    if let Ok(i) = v.binary_search_by(|c| c.as_str().cmp(card)) {
        v.remove(i);
    }
}

/// A header for a match of the demo set: players with their characters; the junk deck is every
/// junk card of the catalogue.
pub fn demo_header(
    catalogue: &Catalogue,
    names: &[&str],
    characters: &[&str],
) -> Result<MatchHeader, SetupError> {
    let players = names
        .iter()
        .enumerate()
        .map(|(i, name)| PlayerConfig {
            name: (*name).to_owned(),
            deck_name: "(character)".into(),
            deck: characters
                .get(i)
                .map(|c| vec![(*c).to_owned()])
                .unwrap_or_default(),
        })
        .collect();
    Ok(MatchHeader {
        game: GameId::SpaceJunk,
        catalogue: catalogue.set.id.clone(),
        players,
        rules: serde_json::Value::Null,
    })
}

impl State {
    /// A player's name.
    pub fn name(&self, seat: Seat) -> &str {
        self.players.get(seat).map_or("?", |p| p.name.as_str())
    }

    fn card_label(&self, id: &str) -> String {
        self.cards
            .get(id)
            .map_or_else(|| id.to_owned(), |c| format!("{} ({id})", c.name_en))
    }

    fn junk(&self, id: &str) -> Option<&crate::catalogue::space_junk::Junk> {
        self.cards.get(id).and_then(|c| c.data.junk())
    }

    /// Whether a card is damaged.
    pub fn is_damaged(&self, card: &str) -> bool {
        self.damaged
            .binary_search_by(|c| c.as_str().cmp(card))
            .is_ok()
    }

    /// Where a junk card is, if it is in this match.
    pub fn place(&self, card: &str) -> Option<Place> {
        let has = |v: &Vec<String>| v.binary_search_by(|c| c.as_str().cmp(card)).is_ok();
        if has(&self.deck) {
            return Some(Place::Deck);
        }
        if has(&self.discard) {
            return Some(Place::Discard);
        }
        for (seat, p) in self.players.iter().enumerate() {
            if p.drawn.iter().any(|c| c == card) {
                return Some(Place::Drawn(seat));
            }
            if has(&p.cargo) {
                return Some(Place::Cargo(seat));
            }
            if let Some((s, _)) = p.equipped().find(|(_, c)| *c == card) {
                return Some(Place::Ship(seat, s));
            }
        }
        None
    }

    /// The ship's Move, Attack and Search without this turn's boosts, before the floor at 0.
    pub fn raw_stats(&self, seat: Seat) -> ShipStats {
        let Some(p) = self.players.get(seat) else {
            return ShipStats::default();
        };
        let mut s = p.modifiers;
        if let Some(c) = p
            .character
            .as_deref()
            .and_then(|id| self.cards.get(id))
            .and_then(|c| c.data.character())
        {
            s.movement += i32::from(c.stats.movement);
            s.attack += i32::from(c.stats.attack);
            s.search += i32::from(c.stats.search);
        }
        for (space, card) in p.equipped() {
            if let Some(j) = self.junk(card) {
                let add = j.adds(space.kind());
                s.movement += i32::from(add.movement);
                s.attack += i32::from(add.attack);
                s.search += i32::from(add.search);
            }
        }
        s
    }

    /// The ship's Move, Attack and Search (character + fuselage + slots + manual changes), without
    /// this turn's boosts.
    pub fn stats(&self, seat: Seat) -> ShipStats {
        let s = self.raw_stats(seat);
        if self.rules.floor_stats_at_zero {
            s.floored()
        } else {
            s
        }
    }

    /// A value with this turn's `*` boosts (boosts count only for the player whose turn it is).
    pub fn boosted(&self, seat: Seat, stat: Stat) -> i32 {
        let boost = if self.turn_seat == Some(seat) {
            self.boosts.get(stat)
        } else {
            0
        };
        self.stats(seat).get(stat) + boost
    }

    /// R cards on the ship (slots and fuselage, not cargo).
    pub fn r_cards(&self, seat: Seat) -> i32 {
        self.players.get(seat).map_or(0, |p| {
            p.equipped()
                .filter(|(_, c)| self.junk(c).is_some_and(|j| j.ram))
                .count() as i32
        })
    }

    /// Cards this player draws in the search now: min(Search with boosts, ring limit), at most
    /// what the deck and the cooler hold.
    pub fn draw_count(&self, seat: Seat) -> usize {
        let Some(p) = self.players.get(seat) else {
            return 0;
        };
        let mut n = self.boosted(seat, Stat::Search).max(0);
        if let Some(limit) = self.rules.search_limit(p.ring) {
            n = n.min(i32::from(limit));
        }
        (n as usize).min(self.deck.len() + self.discard.len())
    }

    /// Usable `*` cards of a player for a value: on the ship, marked `*` there, not damaged.
    pub fn star_cards(&self, seat: Seat, stat: Stat) -> Vec<String> {
        let Some(p) = self.players.get(seat) else {
            return Vec::new();
        };
        let mut out: Vec<String> = p
            .equipped()
            .filter(|(_, c)| self.junk(c).is_some_and(|j| j.stars.get(stat)) && !self.is_damaged(c))
            .map(|(_, c)| c.to_owned())
            .collect();
        out.sort();
        out
    }

    /// Fame of the junk on the ship, in cargo and just drawn.
    pub fn junk_fame(&self, seat: Seat) -> i32 {
        self.own_junk(seat)
            .iter()
            .filter_map(|c| self.junk(c))
            .map(|j| i32::from(j.fame))
            .sum()
    }

    /// Every junk card a player has (ship, cargo, drawn), sorted.
    pub fn own_junk(&self, seat: Seat) -> Vec<String> {
        let Some(p) = self.players.get(seat) else {
            return Vec::new();
        };
        let mut out: Vec<String> = p
            .equipped()
            .map(|(_, c)| c.to_owned())
            .chain(p.cargo.iter().cloned())
            .chain(p.drawn.iter().cloned())
            .collect();
        out.sort();
        out
    }

    /// Fame track + fame of all own junk.
    pub fn final_fame(&self, seat: Seat) -> i32 {
        self.players.get(seat).map_or(0, |p| p.fame) + self.junk_fame(seat)
    }

    /// The tie-break: Move + Attack + Search of the best ship the player can build from all their
    /// own junk (a fuselage and two cards per slot kind), with the character's values when the
    /// house rule says so, plus manual changes.
    pub fn best_ship(&self, seat: Seat) -> i32 {
        let Some(p) = self.players.get(seat) else {
            return 0;
        };
        let mut base = p.modifiers;
        if self.rules.tie_break_counts_character
            && let Some(c) = p
                .character
                .as_deref()
                .and_then(|id| self.cards.get(id))
                .and_then(|c| c.data.character())
        {
            base.movement += i32::from(c.stats.movement);
            base.attack += i32::from(c.stats.attack);
            base.search += i32::from(c.stats.search);
        }
        let junk: Vec<crate::catalogue::space_junk::Stats> = self
            .own_junk(seat)
            .iter()
            .filter(|c| !self.is_damaged(c))
            .filter_map(|c| self.junk(c))
            .map(|j| j.values)
            .collect();
        let mut best = i32::MIN;
        for fus in std::iter::once(None).chain((0..junk.len()).map(Some)) {
            let mut b = base;
            if let Some(f) = fus {
                b.movement += i32::from(junk[f].movement);
                b.attack += i32::from(junk[f].attack);
                b.search += i32::from(junk[f].search);
            }
            let rest: Vec<usize> = (0..junk.len()).filter(|i| Some(*i) != fus).collect();
            // For each value, the six best positive cards: the optimum uses only these.
            let top = |stat: Stat| -> Vec<usize> {
                let mut c: Vec<usize> = rest
                    .iter()
                    .copied()
                    .filter(|i| junk[*i].get(stat) > 0)
                    .collect();
                c.sort_by_key(|i| std::cmp::Reverse(junk[*i].get(stat)));
                c.truncate(6);
                c
            };
            let picks = |c: &[usize]| -> Vec<Vec<usize>> {
                let mut out = vec![Vec::new()];
                for (x, a) in c.iter().enumerate() {
                    out.push(vec![*a]);
                    for b2 in &c[x + 1..] {
                        out.push(vec![*a, *b2]);
                    }
                }
                out
            };
            let (tm, ta, ts) = (top(Stat::Move), top(Stat::Attack), top(Stat::Search));
            for m in picks(&tm) {
                for a in picks(&ta) {
                    if a.iter().any(|x| m.contains(x)) {
                        continue;
                    }
                    for s in picks(&ts) {
                        if s.iter().any(|x| m.contains(x) || a.contains(x)) {
                            continue;
                        }
                        let sum = |set: &[usize], stat: Stat| -> i32 {
                            set.iter().map(|i| i32::from(junk[*i].get(stat))).sum()
                        };
                        let mut t = ShipStats {
                            movement: b.movement + sum(&m, Stat::Move),
                            attack: b.attack + sum(&a, Stat::Attack),
                            search: b.search + sum(&s, Stat::Search),
                        };
                        if self.rules.floor_stats_at_zero {
                            t = t.floored();
                        }
                        best = best.max(t.total());
                    }
                }
            }
        }
        best
    }

    /// Other ships on the same ring and space as this one, by seat.
    pub fn ships_here(&self, seat: Seat) -> Vec<Seat> {
        let Some(me) = self.players.get(seat) else {
            return Vec::new();
        };
        (0..self.players.len())
            .filter(|&s| {
                s != seat
                    && self.players[s].ring == me.ring
                    && self.players[s].position == me.position
            })
            .collect()
    }

    /// Cards a ram winner may take from the loser.
    pub fn takeable(&self, loser: Seat) -> Vec<String> {
        let Some(p) = self.players.get(loser) else {
            return Vec::new();
        };
        let mut out: Vec<String> = p
            .equipped()
            .filter(|(s, _)| *s != Space::Fuselage || self.rules.ram_can_take_fuselage)
            .map(|(_, c)| c.to_owned())
            .collect();
        out.sort();
        out
    }

    fn phase(&self) -> Option<Phase> {
        match self.step {
            Step::Move { .. } | Step::Ram { .. } | Step::RamDice | Step::RamTake { .. } => {
                Some(Phase::Move)
            }
            Step::Attack { .. } | Step::AttackDie | Step::AttackBoost | Step::HitDice => {
                Some(Phase::Attack)
            }
            Step::Search { .. } | Step::Rebuild { .. } => Some(Phase::Search),
            _ => None,
        }
    }

    /// The player who acts now.
    pub fn active(&self) -> Option<Seat> {
        match self.step {
            Step::Setup | Step::Cameo | Step::Over => None,
            Step::Move { seat }
            | Step::Ram { seat }
            | Step::Attack { seat }
            | Step::Search { seat }
            | Step::Rebuild { seat } => Some(seat),
            Step::RamTake { winner, .. } => Some(winner),
            Step::RamDice => self.ram.as_ref().map(|r| r.rammer),
            Step::AttackDie | Step::AttackBoost | Step::HitDice => {
                self.attack.as_ref().map(|a| a.attacker)
            }
        }
    }
}

/// Runs events on a scratch copy so that later steps of one move see earlier ones.
struct Builder {
    state: State,
    events: Vec<Event>,
}

impl Builder {
    fn new(state: &State) -> Self {
        Builder {
            state: state.clone(),
            events: Vec::new(),
        }
    }

    fn push(&mut self, event: Event) {
        SpaceJunk::apply(&mut self.state, &event);
        self.events.push(event);
    }

    fn n(&self) -> usize {
        self.state.players.len().max(1)
    }

    fn begin_turn(&mut self, phase: Phase, seat: Seat) {
        self.push(Event::TurnBegan(seat));
        self.push(Event::StepTo(match phase {
            Phase::Move => Step::Move { seat },
            Phase::Attack => Step::Attack { seat },
            Phase::Search => Step::Search { seat },
        }));
    }

    /// The turn of `seat` in `phase` is over: the next player, the next phase, or the round end.
    fn end_turn(&mut self, phase: Phase, seat: Seat) {
        let next = (seat + 1) % self.n();
        if next != self.state.first {
            self.begin_turn(phase, next);
            return;
        }
        let first = self.state.first;
        match phase {
            Phase::Move => self.begin_turn(Phase::Attack, first),
            Phase::Attack => self.begin_turn(Phase::Search, first),
            Phase::Search => {
                if self.state.rules.cameo {
                    self.push(Event::StepTo(Step::Cameo));
                } else {
                    self.end_round();
                }
            }
        }
    }

    fn end_round(&mut self) {
        if self.state.round >= ROUNDS {
            self.push(Event::StepTo(Step::Over));
            return;
        }
        let next_first = (self.state.first + 1) % self.n();
        self.push(Event::RoundBegan(self.state.round + 1));
        self.push(Event::FirstIs(next_first));
        self.begin_turn(Phase::Move, next_first);
    }

    /// Moves `seat` clockwise by `spaces` in `ring`, with the orbit fame.
    fn fly(&mut self, seat: Seat, ring: u8, spaces: u32) {
        let Some(p) = self.state.players.get(seat) else {
            return;
        };
        let old_len = u64::from(self.state.rules.ring_length(p.ring));
        let new_len = u64::from(self.state.rules.ring_length(ring));
        // Ring change: the same fraction of the orbit, rounded back (§10 #2).
        let start = if ring == p.ring {
            u64::from(p.position)
        } else {
            u64::from(p.position) * new_len / old_len
        };
        let end = start + u64::from(spaces);
        let orbits = u32::try_from(end / new_len).unwrap_or(u32::MAX);
        let position = u32::try_from(end % new_len).unwrap_or(0);
        self.push(Event::Moved {
            seat,
            ring,
            position,
            orbits,
        });
        if orbits > 0 {
            self.push(Event::Fame(
                seat,
                ORBIT_FAME.saturating_mul(i32::try_from(orbits).unwrap_or(i32::MAX)),
            ));
        }
    }

    /// Settles the attack die into hits (after the last boost).
    fn settle_hits(&mut self) {
        let Some(a) = self.state.attack.clone() else {
            return;
        };
        let total = self.attack_total();
        let hits = u32::try_from(total.max(0) / HIT_STEP).unwrap_or(0);
        self.push(Event::Hits(hits));
        if hits > 0 {
            self.push(Event::Fame(
                a.attacker,
                HIT_FAME.saturating_mul(i32::try_from(hits).unwrap_or(i32::MAX)),
            ));
            self.push(Event::StepTo(Step::HitDice));
        } else {
            self.finish_attack();
        }
    }

    fn attack_total(&self) -> i32 {
        let Some(a) = &self.state.attack else {
            return 0;
        };
        i32::from(a.roll.unwrap_or(0)) + self.state.boosted(a.attacker, Stat::Attack)
            - i32::try_from(a.range).unwrap_or(i32::MAX)
    }

    fn finish_attack(&mut self) {
        let Some(a) = self.state.attack.clone() else {
            return;
        };
        let report = AttackReport {
            round: self.state.round,
            attacker: a.attacker,
            target: a.target,
            roll: a.roll.unwrap_or(0),
            attack: self.state.boosted(a.attacker, Stat::Attack),
            range: a.range,
            total: self.attack_total(),
            hits: a.hits.unwrap_or(0),
            locations: a.locations.clone(),
            damaged: a.damaged.clone(),
        };
        self.push(Event::AttackSettled(report));
        self.end_turn(Phase::Attack, a.attacker);
    }

    fn done(self, violations: Vec<Violation>) -> Decision<Event> {
        Decision {
            events: self.events,
            violations,
        }
    }
}

fn check_seat(state: &State, seat: Seat) -> Result<(), Impossible> {
    if seat < state.players.len() {
        Ok(())
    } else {
        Err(Impossible::new(format!(
            "this match has seats 0..={}, not {seat}",
            state.players.len().saturating_sub(1)
        )))
    }
}

fn step_text(state: &State) -> String {
    let r = state.round;
    let who = |s: Seat| state.name(s).to_owned();
    match state.step {
        Step::Setup => "setup: deal the characters and choose the first player".into(),
        Step::Move { seat } => format!("round {r} move: {} chooses a ring and moves", who(seat)),
        Step::Ram { seat } => format!(
            "round {r} move: {} may ram a ship on the same space",
            who(seat)
        ),
        Step::RamDice => "ram: both players roll a d6".into(),
        Step::RamTake { winner, loser } => format!(
            "ram: {} may take one piece of junk from {}",
            who(winner),
            who(loser)
        ),
        Step::Attack { seat } => format!("round {r} attack: {} may attack a ship", who(seat)),
        Step::AttackDie => "attack: roll the attack die".into(),
        Step::AttackBoost => "attack: damage *-Attack cards for +4, or settle the hits".into(),
        Step::HitDice => "attack: roll one location die per hit".into(),
        Step::Search { seat } => format!("round {r} search: {} draws junk", who(seat)),
        Step::Rebuild { seat } => format!("round {r} search: {} rebuilds the ship", who(seat)),
        Step::Cameo => format!("round {r} cameo time: a short story each, from the first player"),
        Step::Over => "the game is over".into(),
    }
}

fn wrong_time(state: &State, what: &str) -> Impossible {
    Impossible::new(format!("{what}: the match is at {}", step_text(state)))
}

impl Game for SpaceJunk {
    const ID: GameId = GameId::SpaceJunk;
    type State = State;
    type Move = Move;
    type Event = Event;
    type Rules = Rules;

    fn setup(
        players: &[PlayerConfig],
        rules: &Rules,
        catalogue: &Catalogue,
    ) -> Result<State, SetupError> {
        if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&players.len()) {
            return Err(SetupError::PlayerCount {
                game: GameId::SpaceJunk,
                expected: format!("{MIN_PLAYERS}–{MAX_PLAYERS}"),
                got: players.len(),
            });
        }
        rules.check().map_err(SetupError::Rules)?;
        let mut cards = BTreeMap::new();
        let info = |c: &crate::catalogue::Card, data: &SpaceJunkCard| CardInfo {
            name_en: c.name_en.clone(),
            name_ja: c.name_ja.clone(),
            text: c.text.clone(),
            data: data.clone(),
        };
        // Every character of the catalogue can be dealt.
        for c in &catalogue.cards {
            if let CardData::SpaceJunk(data @ SpaceJunkCard::Character(_)) = &c.data {
                cards.insert(c.id.clone(), info(c, data));
            }
        }
        let mut junk: Vec<String> = Vec::new();
        let mut seats = Vec::new();
        let mut dealt: BTreeMap<String, String> = BTreeMap::new();
        for p in players {
            let mut character = None;
            let mut characters = Vec::new();
            for id in &p.deck {
                let card = catalogue.card(id).ok_or_else(|| SetupError::UnknownCard {
                    player: p.name.clone(),
                    card: id.clone(),
                    catalogue: catalogue.set.id.clone(),
                })?;
                match &card.data {
                    CardData::SpaceJunk(SpaceJunkCard::Character(c)) => {
                        characters.push(id.clone());
                        character = Some((id.clone(), c.ability_uses));
                    }
                    CardData::SpaceJunk(data @ SpaceJunkCard::Junk(_)) => {
                        cards.insert(id.clone(), info(card, data));
                        junk.push(id.clone());
                    }
                    _ => {
                        return Err(SetupError::UnknownCard {
                            player: p.name.clone(),
                            card: id.clone(),
                            catalogue: catalogue.set.id.clone(),
                        });
                    }
                }
            }
            if characters.len() > 1 {
                return Err(SetupError::IllegalDeck {
                    player: p.name.clone(),
                    violations: vec![Violation::new(
                        "space-junk.setup-character",
                        format!(
                            "Each player plays one character; {} lists {}: {}.",
                            p.name,
                            characters.len(),
                            characters.join(", ")
                        ),
                        "space-junk.md §2.1; seed Setup",
                    )],
                });
            }
            if let Some((id, _)) = &character
                && let Some(other) = dealt.insert(id.clone(), p.name.clone())
            {
                return Err(SetupError::IllegalDeck {
                    player: p.name.clone(),
                    violations: vec![Violation::new(
                        "space-junk.character-unique",
                        format!("Character {id} is a single card and already goes to {other}."),
                        "space-junk.md §2.1; seed Setup",
                    )],
                });
            }
            seats.push(PlayerState {
                name: p.name.clone(),
                ability_uses_left: character.as_ref().and_then(|(_, u)| *u),
                character: character.map(|(id, _)| id),
                fame: 0,
                ring: rules.start_ring,
                position: 0,
                orbits: 0,
                spaces: Default::default(),
                cargo: Vec::new(),
                drawn: Vec::new(),
                modifiers: ShipStats::default(),
            });
        }
        if junk.is_empty() {
            for c in &catalogue.cards {
                if let CardData::SpaceJunk(data @ SpaceJunkCard::Junk(_)) = &c.data {
                    cards.insert(c.id.clone(), info(c, data));
                    junk.push(c.id.clone());
                }
            }
        }
        junk.sort();
        junk.dedup();
        Ok(State {
            rules: rules.clone(),
            players: seats,
            cards: Arc::new(cards),
            round: 0,
            first: 0,
            step: Step::Setup,
            deck: junk,
            discard: Vec::new(),
            damaged: Vec::new(),
            turn_seat: None,
            boosts: ShipStats::default(),
            attack: None,
            ram: None,
            last_attack: None,
            last_ram: None,
        })
    }

    fn decide(state: &State, mv: &Move) -> Result<Decision<Event>, Impossible> {
        let mut b = Builder::new(state);
        let mut v = Vec::new();
        if state.step == Step::Over {
            return Err(Impossible::new("the game is over"));
        }
        match mv {
            Move::DealCharacter { player, card } => {
                check_seat(state, *player)?;
                if state.step != Step::Setup {
                    return Err(wrong_time(state, "characters are dealt at setup"));
                }
                if state
                    .cards
                    .get(card)
                    .and_then(|c| c.data.character())
                    .is_none()
                {
                    return Err(Impossible::new(format!(
                        "{card} is not a character card of this set"
                    )));
                }
                if let Some(other) = state
                    .players
                    .iter()
                    .position(|p| p.character.as_deref() == Some(card.as_str()))
                    .filter(|s| s != player)
                {
                    return Err(Impossible::new(format!(
                        "{} already has {}; each character is a single card",
                        state.name(other),
                        state.card_label(card)
                    )));
                }
                b.push(Event::CharacterDealt(*player, card.clone()));
            }
            Move::FirstPlayer { player } => {
                check_seat(state, *player)?;
                if state.step != Step::Setup {
                    return Err(wrong_time(state, "the first player is chosen at setup"));
                }
                if let Some(p) = state.players.iter().find(|p| p.character.is_none()) {
                    return Err(Impossible::new(format!(
                        "deal a character to {} first",
                        p.name
                    )));
                }
                b.push(Event::RoundBegan(1));
                b.push(Event::FirstIs(*player));
                b.begin_turn(Phase::Move, *player);
            }
            Move::Boost { player, card } => {
                check_seat(state, *player)?;
                let Some(phase) = state.phase() else {
                    return Err(wrong_time(
                        state,
                        "a * boost is used in the move, attack or search phase",
                    ));
                };
                let stat = phase.stat();
                let label = state.card_label(card);
                let place = state.place(card);
                match place {
                    Some(Place::Ship(s, _)) if s == *player => {}
                    Some(Place::Cargo(s)) | Some(Place::Drawn(s)) if s == *player => {
                        v.push(Violation::new(
                            "space-junk.boost-cargo",
                            format!(
                                "Only a card on your ship (a slot or the fuselage) can be damaged for its * boost; {label} is not on the ship."
                            ),
                            "space-junk.md §5 (* boosts); seed Special Symbols",
                        ));
                    }
                    _ => {
                        return Err(Impossible::new(format!(
                            "{label} is not {}'s card",
                            state.name(*player)
                        )));
                    }
                }
                let star = state.junk(card).is_some_and(|j| j.stars.get(stat));
                if !star {
                    v.push(Violation::new(
                        "space-junk.boost-star",
                        format!(
                            "Only a card with a * in {} gives a {} boost now; {label} has none there.",
                            stat_name(stat),
                            stat_name(stat)
                        ),
                        "space-junk.md §5 (* boosts); seed Special Symbols",
                    ));
                }
                if state.turn_seat != Some(*player) {
                    v.push(Violation::new(
                        "space-junk.boost-turn",
                        format!(
                            "A * boost is used only on your own turn; it is {}'s turn.",
                            state.turn_seat.map_or("nobody", |s| state.name(s))
                        ),
                        "space-junk.md §5 (* boosts); seed Special Symbols",
                    ));
                } else {
                    let ok = matches!(
                        state.step,
                        Step::Move { .. }
                            | Step::Attack { .. }
                            | Step::AttackDie
                            | Step::AttackBoost
                            | Step::Search { .. }
                    );
                    if !ok {
                        let when = match phase {
                            Phase::Move => "before the ship moves",
                            Phase::Attack => "before the hits are settled",
                            Phase::Search => "before the draw",
                        };
                        v.push(Violation::new(
                            "space-junk.boost-phase",
                            format!(
                                "A {} boost is used {when}; the match is at {}.",
                                stat_name(stat),
                                step_text(state)
                            ),
                            "space-junk.md §3, §5; seed Special Symbols",
                        ));
                    }
                }
                if state.is_damaged(card) {
                    v.push(Violation::new(
                        "space-junk.boost-damaged",
                        format!("{label} is already damaged, so its * cannot be used."),
                        "space-junk.md §5; seed Special Symbols (Note)",
                    ));
                }
                b.push(Event::Boosted {
                    seat: *player,
                    card: card.clone(),
                    stat,
                    amount: i32::from(stat.star_boost()),
                });
            }
            Move::MoveShip {
                player,
                ring,
                spaces,
            } => {
                check_seat(state, *player)?;
                if !(1..=RINGS).contains(ring) {
                    return Err(Impossible::new(format!(
                        "the rings are 1 (inner), 2 and 3 (outer), not {ring}"
                    )));
                }
                match state.step {
                    Step::Move { seat } if seat == *player => {}
                    Step::Move { seat } => {
                        return Err(Impossible::new(format!(
                            "it is {}'s turn to move",
                            state.name(seat)
                        )));
                    }
                    _ => return Err(wrong_time(state, "ships move in the move phase")),
                }
                let budget = u32::try_from(state.boosted(*player, Stat::Move).max(0)).unwrap_or(0);
                let go = spaces.unwrap_or(budget);
                if go > MAX_CHANGE as u32 * 10 {
                    return Err(Impossible::new(format!("{go} spaces is not a move")));
                }
                if state.rules.exact_movement && go != budget {
                    v.push(Violation::new(
                        "space-junk.move-exact",
                        format!("A ship moves exactly its Move value: {budget} spaces, not {go}."),
                        "space-junk.md §10 #10; seed Movement Phase",
                    ));
                } else if go > budget {
                    v.push(Violation::new(
                        "space-junk.move-exact",
                        format!("A ship moves at most its Move value: {budget} spaces, not {go}."),
                        "space-junk.md §10 #10 (house rule); seed Movement Phase",
                    ));
                }
                b.fly(*player, *ring, go);
                if b.state.ships_here(*player).is_empty() {
                    b.end_turn(Phase::Move, *player);
                } else {
                    b.push(Event::StepTo(Step::Ram { seat: *player }));
                }
            }
            Move::Ram { player, target } => {
                check_seat(state, *player)?;
                check_seat(state, *target)?;
                if player == target {
                    return Err(Impossible::new("a ship cannot ram itself"));
                }
                match state.step {
                    Step::Ram { seat } if seat == *player => {}
                    _ => {
                        return Err(wrong_time(state, "a ship may ram right after its own move"));
                    }
                }
                if state.round < state.rules.ram_from_round {
                    v.push(Violation::new(
                        "space-junk.ram-first-round",
                        format!(
                            "There is no ramming in round {}: ramming starts in round {}.",
                            state.round, state.rules.ram_from_round
                        ),
                        "space-junk.md §3, §10 #8; seed Ramming (Note)",
                    ));
                }
                if !state.ships_here(*player).contains(target) {
                    v.push(Violation::new(
                        "space-junk.ram-space",
                        format!(
                            "A ship rams only a ship on the space where it ended its move; {} is not on {}'s space.",
                            state.name(*target),
                            state.name(*player)
                        ),
                        "space-junk.md §5; seed Ramming",
                    ));
                }
                b.push(Event::RamDeclared(*player, *target));
                b.push(Event::StepTo(Step::RamDice));
            }
            Move::NoRam { player } => {
                check_seat(state, *player)?;
                match state.step {
                    Step::Ram { seat } if seat == *player => b.end_turn(Phase::Move, *player),
                    _ => return Err(wrong_time(state, "there is no ram to decline")),
                }
            }
            Move::TakeJunk { player, card } => {
                check_seat(state, *player)?;
                let Step::RamTake { winner, loser } = state.step else {
                    return Err(wrong_time(state, "junk is taken after a won ram"));
                };
                if winner != *player {
                    return Err(Impossible::new(format!(
                        "{} won the ram, not {}",
                        state.name(winner),
                        state.name(*player)
                    )));
                }
                let label = state.card_label(card);
                let from = match state.place(card) {
                    Some(p @ (Place::Ship(s, _) | Place::Cargo(s) | Place::Drawn(s)))
                        if s == loser =>
                    {
                        p
                    }
                    _ => {
                        return Err(Impossible::new(format!(
                            "{label} is not {}'s card",
                            state.name(loser)
                        )));
                    }
                };
                let kind = match from {
                    Place::Ship(_, Space::Fuselage) => {
                        if !state.rules.ram_can_take_fuselage {
                            v.push(Violation::new(
                                "space-junk.ram-take",
                                format!("The ram winner takes a card from a Move, Attack or Search slot, not the fuselage ({label})."),
                                "space-junk.md §10 #8",
                            ));
                        }
                        Some(Slot::Fuselage)
                    }
                    Place::Ship(_, s) => Some(s.kind()),
                    _ => {
                        v.push(Violation::new(
                            "space-junk.ram-take",
                            format!("The cargo hold is safe: the ram winner takes a card equipped on the ship, not {label}."),
                            "space-junk.md §10 #8; seed Search Phase (cargo)",
                        ));
                        None
                    }
                };
                let to = kind
                    .and_then(|k| {
                        Space::ALL
                            .into_iter()
                            .find(|s| s.kind() == k && state.players[winner].at(*s).is_none())
                    })
                    .map_or(Place::Cargo(winner), |s| Place::Ship(winner, s));
                b.push(Event::CardMoved {
                    card: card.clone(),
                    from,
                    to,
                });
                let rammer = state.turn_seat.unwrap_or(winner);
                b.end_turn(Phase::Move, rammer);
            }
            Move::NoTake { player } => {
                check_seat(state, *player)?;
                let Step::RamTake { winner, .. } = state.step else {
                    return Err(wrong_time(state, "junk is taken after a won ram"));
                };
                if winner != *player {
                    return Err(Impossible::new(format!(
                        "{} won the ram, not {}",
                        state.name(winner),
                        state.name(*player)
                    )));
                }
                let rammer = state.turn_seat.unwrap_or(winner);
                b.end_turn(Phase::Move, rammer);
            }
            Move::Attack {
                player,
                target,
                range,
            } => {
                check_seat(state, *player)?;
                check_seat(state, *target)?;
                if player == target {
                    return Err(Impossible::new("a ship cannot attack itself"));
                }
                if *range > 999 {
                    return Err(Impossible::new(format!(
                        "a range of {range} is not on the board"
                    )));
                }
                match state.step {
                    Step::Attack { seat } if seat == *player => {}
                    Step::Attack { seat } => {
                        return Err(Impossible::new(format!(
                            "it is {}'s turn to attack",
                            state.name(seat)
                        )));
                    }
                    _ => {
                        return Err(wrong_time(
                            state,
                            "attacks are made once per attack phase, in turn order",
                        ));
                    }
                }
                b.push(Event::AttackDeclared(*player, *target, *range));
                b.push(Event::StepTo(Step::AttackDie));
            }
            Move::NoAttack { player } => {
                check_seat(state, *player)?;
                match state.step {
                    Step::Attack { seat } if seat == *player => b.end_turn(Phase::Attack, *player),
                    _ => return Err(wrong_time(state, "there is no attack to pass")),
                }
            }
            Move::ConfirmHits { player } => {
                check_seat(state, *player)?;
                if state.step != Step::AttackBoost || state.active() != Some(*player) {
                    return Err(wrong_time(state, "hits are settled after the attack die"));
                }
                b.settle_hits();
            }
            Move::Draw { player, cards } => {
                check_seat(state, *player)?;
                match state.step {
                    Step::Search { seat } if seat == *player => {}
                    Step::Search { seat } => {
                        return Err(Impossible::new(format!(
                            "it is {}'s turn to search",
                            state.name(seat)
                        )));
                    }
                    _ => return Err(wrong_time(state, "junk is drawn in the search phase")),
                }
                let mut seen: Vec<&str> = Vec::new();
                let mut from_deck = Vec::new();
                let mut from_discard = Vec::new();
                for c in cards {
                    if seen.contains(&c.as_str()) {
                        return Err(Impossible::new(format!("{c} is named twice")));
                    }
                    seen.push(c);
                    match state.place(c) {
                        Some(Place::Deck) => from_deck.push(c.clone()),
                        Some(Place::Discard) => from_discard.push(c.clone()),
                        Some(_) => {
                            return Err(Impossible::new(format!(
                                "{} is not in the junk deck or the cooler",
                                state.card_label(c)
                            )));
                        }
                        None => {
                            return Err(Impossible::new(format!(
                                "{c} is not a junk card of this match"
                            )));
                        }
                    }
                }
                let allowed = state.draw_count(*player);
                if cards.len() != allowed {
                    let p = &state.players[*player];
                    let search = state.boosted(*player, Stat::Search).max(0);
                    let why = match state.rules.search_limit(p.ring) {
                        Some(l) => format!("Search {search}, ring {} limit {l}", p.ring),
                        None => format!("Search {search}, no limit entered for ring {}", p.ring),
                    };
                    v.push(Violation::new(
                        "space-junk.search-count",
                        format!(
                            "{} draws {allowed} card(s) ({why}; {} in the deck and the cooler), not {}.",
                            p.name,
                            state.deck.len() + state.discard.len(),
                            cards.len()
                        ),
                        "space-junk.md §5 (search), §10 #1, #13; seed Search Phase",
                    ));
                }
                if !from_discard.is_empty() && from_deck.len() < state.deck.len() {
                    v.push(Violation::new(
                        "space-junk.search-reshuffle",
                        format!(
                            "The cooler is shuffled into a new deck only when the deck runs out; the deck still holds {} card(s).",
                            state.deck.len() - from_deck.len()
                        ),
                        "space-junk.md §3; seed Search Phase",
                    ));
                }
                for c in from_deck {
                    b.push(Event::CardMoved {
                        card: c,
                        from: Place::Deck,
                        to: Place::Drawn(*player),
                    });
                }
                if !from_discard.is_empty() {
                    b.push(Event::Reshuffled);
                    for c in from_discard {
                        b.push(Event::CardMoved {
                            card: c,
                            from: Place::Deck,
                            to: Place::Drawn(*player),
                        });
                    }
                }
                if b.state.deck.is_empty() && !b.state.discard.is_empty() {
                    b.push(Event::Reshuffled);
                }
                // After the draw: every damaged card of this player goes to the cooler.
                let p = &b.state.players[*player];
                let mut gone: Vec<(String, Place)> = p
                    .equipped()
                    .filter(|(_, c)| b.state.is_damaged(c))
                    .map(|(s, c)| (c.to_owned(), Place::Ship(*player, s)))
                    .collect();
                gone.extend(
                    p.cargo
                        .iter()
                        .filter(|c| b.state.is_damaged(c))
                        .map(|c| (c.clone(), Place::Cargo(*player))),
                );
                for (card, from) in gone {
                    b.push(Event::CardMoved {
                        card,
                        from,
                        to: Place::Discard,
                    });
                }
                b.push(Event::StepTo(Step::Rebuild { seat: *player }));
            }
            Move::Equip {
                player,
                card,
                space,
            } => {
                check_seat(state, *player)?;
                let label = state.card_label(card);
                let from = match state.place(card) {
                    Some(p @ (Place::Ship(s, _) | Place::Cargo(s) | Place::Drawn(s)))
                        if s == *player =>
                    {
                        p
                    }
                    _ => {
                        return Err(Impossible::new(format!(
                            "{label} is not {}'s card",
                            state.name(*player)
                        )));
                    }
                };
                if from == Place::Ship(*player, *space) {
                    return Err(Impossible::new(format!(
                        "{label} is already in {}",
                        space.label()
                    )));
                }
                if state.step != (Step::Rebuild { seat: *player }) {
                    v.push(Violation::new(
                        "space-junk.rebuild-timing",
                        format!(
                            "A ship is rebuilt in its own search phase, after the draw; the match is at {}.",
                            step_text(state)
                        ),
                        "space-junk.md §3 (search 4); seed Search Phase",
                    ));
                }
                if let Some(old) = state.players[*player].at(*space) {
                    let to = match from {
                        Place::Ship(_, s) => Place::Ship(*player, s),
                        _ => Place::Cargo(*player),
                    };
                    // The card there first goes where the new one comes from (a swap between
                    // spaces) or to cargo; a card is taken out of a space only if it is there.
                    b.push(Event::CardMoved {
                        card: old.to_owned(),
                        from: Place::Ship(*player, *space),
                        to,
                    });
                    b.push(Event::CardMoved {
                        card: card.clone(),
                        from,
                        to: Place::Ship(*player, *space),
                    });
                } else {
                    b.push(Event::CardMoved {
                        card: card.clone(),
                        from,
                        to: Place::Ship(*player, *space),
                    });
                }
            }
            Move::Unequip { player, card } => {
                check_seat(state, *player)?;
                let label = state.card_label(card);
                let Some(from @ Place::Ship(s, _)) = state.place(card) else {
                    return Err(Impossible::new(format!("{label} is not on a ship")));
                };
                if s != *player {
                    return Err(Impossible::new(format!(
                        "{label} is not on {}'s ship",
                        state.name(*player)
                    )));
                }
                if state.step != (Step::Rebuild { seat: *player }) {
                    v.push(Violation::new(
                        "space-junk.rebuild-timing",
                        format!(
                            "A ship is rebuilt in its own search phase, after the draw; the match is at {}.",
                            step_text(state)
                        ),
                        "space-junk.md §3 (search 4); seed Search Phase",
                    ));
                }
                b.push(Event::CardMoved {
                    card: card.clone(),
                    from,
                    to: Place::Cargo(*player),
                });
            }
            Move::FinishSearch { player } => {
                check_seat(state, *player)?;
                if state.step != (Step::Rebuild { seat: *player }) {
                    return Err(wrong_time(
                        state,
                        "a search is finished after the draw and the rebuild",
                    ));
                }
                for c in state.players[*player].drawn.clone() {
                    b.push(Event::CardMoved {
                        card: c,
                        from: Place::Drawn(*player),
                        to: Place::Cargo(*player),
                    });
                }
                b.end_turn(Phase::Search, *player);
            }
            Move::EndRound => {
                if state.step != Step::Cameo {
                    return Err(wrong_time(state, "a round ends after cameo time"));
                }
                b.end_round();
            }
            Move::Effect {
                player,
                fame,
                movement,
                attack,
                search,
                spaces,
                repair,
                ability,
                note: _,
            } => {
                check_seat(state, *player)?;
                for x in [*fame, *movement, *attack, *search] {
                    if x.unsigned_abs() > MAX_CHANGE.unsigned_abs() {
                        return Err(Impossible::new(format!(
                            "a change of {x} is outside ±{MAX_CHANGE}"
                        )));
                    }
                }
                if *spaces > MAX_CHANGE as u32 {
                    return Err(Impossible::new(format!(
                        "{spaces} extra spaces is outside 0..={MAX_CHANGE}"
                    )));
                }
                if state.step == Step::Setup {
                    return Err(wrong_time(state, "effects happen during the rounds"));
                }
                let p = &state.players[*player];
                if *ability {
                    if p.character.is_none() {
                        return Err(Impossible::new(format!("{} has no character", p.name)));
                    }
                    if p.ability_uses_left == Some(0) {
                        v.push(Violation::new(
                            "space-junk.ability-uses",
                            format!(
                                "{}'s ability has no use left.",
                                p.character
                                    .as_deref()
                                    .map_or_else(String::new, |c| state.card_label(c))
                            ),
                            "space-junk.md §6 (ability_uses); docs/catalogue-space-junk.md",
                        ));
                    }
                    if p.ability_uses_left.is_some_and(|u| u > 0) {
                        b.push(Event::AbilityUsed(*player));
                    }
                }
                if let Some(card) = repair {
                    match state.place(card) {
                        Some(Place::Ship(s, _) | Place::Cargo(s) | Place::Drawn(s))
                            if s == *player => {}
                        _ => {
                            return Err(Impossible::new(format!(
                                "{} is not {}'s card",
                                state.card_label(card),
                                p.name
                            )));
                        }
                    }
                    if !state.is_damaged(card) {
                        return Err(Impossible::new(format!(
                            "{} is not damaged",
                            state.card_label(card)
                        )));
                    }
                    b.push(Event::Repaired(card.clone()));
                }
                if *fame != 0 {
                    b.push(Event::Fame(*player, *fame));
                }
                if *movement != 0 || *attack != 0 || *search != 0 {
                    let m = p.modifiers;
                    b.push(Event::Modifiers(
                        *player,
                        ShipStats {
                            movement: m.movement + movement,
                            attack: m.attack + attack,
                            search: m.search + search,
                        },
                    ));
                }
                if *spaces > 0 {
                    let ring = p.ring;
                    b.fly(*player, ring, *spaces);
                }
            }
        }
        Ok(b.done(v))
    }

    fn apply(state: &mut State, event: &Event) {
        match event {
            Event::CharacterDealt(seat, card) => {
                let uses = state
                    .cards
                    .get(card)
                    .and_then(|c| c.data.character())
                    .and_then(|c| c.ability_uses);
                if let Some(p) = state.players.get_mut(*seat) {
                    p.character = Some(card.clone());
                    p.ability_uses_left = uses;
                }
            }
            Event::FirstIs(seat) => state.first = *seat,
            Event::RoundBegan(r) => state.round = *r,
            Event::TurnBegan(seat) => {
                state.turn_seat = Some(*seat);
                state.boosts = ShipStats::default();
            }
            Event::StepTo(step) => {
                state.step = *step;
                if matches!(step, Step::Cameo | Step::Over) {
                    state.turn_seat = None;
                    state.boosts = ShipStats::default();
                }
            }
            Event::Boosted {
                seat,
                card,
                stat,
                amount,
            } => {
                insert_sorted(&mut state.damaged, card);
                if state.turn_seat == Some(*seat) {
                    *state.boosts.get_mut(*stat) += amount;
                }
            }
            Event::Moved {
                seat,
                ring,
                position,
                orbits,
            } => {
                if let Some(p) = state.players.get_mut(*seat) {
                    p.ring = *ring;
                    p.position = *position;
                    p.orbits = p.orbits.saturating_add(*orbits);
                }
            }
            Event::Fame(seat, d) => {
                if let Some(p) = state.players.get_mut(*seat) {
                    p.fame = p.fame.saturating_add(*d);
                }
            }
            Event::CardMoved { card, from, to } => {
                match from {
                    Place::Deck => remove_sorted(&mut state.deck, card),
                    Place::Discard => remove_sorted(&mut state.discard, card),
                    Place::Drawn(s) => {
                        if let Some(p) = state.players.get_mut(*s) {
                            p.drawn.retain(|c| c != card);
                        }
                    }
                    Place::Cargo(s) => {
                        if let Some(p) = state.players.get_mut(*s) {
                            remove_sorted(&mut p.cargo, card);
                        }
                    }
                    Place::Ship(s, space) => {
                        if let Some(slot) = state
                            .players
                            .get_mut(*s)
                            .and_then(|p| p.spaces.get_mut(space.index()))
                            && slot.as_deref() == Some(card.as_str())
                        {
                            *slot = None;
                        }
                    }
                }
                match to {
                    Place::Deck => insert_sorted(&mut state.deck, card),
                    Place::Discard => {
                        remove_sorted(&mut state.damaged, card);
                        insert_sorted(&mut state.discard, card);
                    }
                    Place::Drawn(s) => {
                        if let Some(p) = state.players.get_mut(*s) {
                            p.drawn.push(card.clone());
                        }
                    }
                    Place::Cargo(s) => {
                        if let Some(p) = state.players.get_mut(*s) {
                            insert_sorted(&mut p.cargo, card);
                        }
                    }
                    Place::Ship(s, space) => {
                        if let Some(slot) = state
                            .players
                            .get_mut(*s)
                            .and_then(|p| p.spaces.get_mut(space.index()))
                        {
                            *slot = Some(card.clone());
                        }
                    }
                }
            }
            Event::Reshuffled => {
                let discard = std::mem::take(&mut state.discard);
                for c in discard {
                    insert_sorted(&mut state.deck, &c);
                }
            }
            Event::Damaged(card) => insert_sorted(&mut state.damaged, card),
            Event::Repaired(card) => remove_sorted(&mut state.damaged, card),
            Event::RamDeclared(rammer, target) => {
                state.ram = Some(RamState {
                    rammer: *rammer,
                    target: *target,
                    rammer_roll: None,
                    target_roll: None,
                })
            }
            Event::RamRolled(seat, v) => {
                if let Some(r) = &mut state.ram {
                    if r.rammer == *seat && r.rammer_roll.is_none() {
                        r.rammer_roll = Some(*v);
                    } else {
                        r.target_roll = Some(*v);
                    }
                }
            }
            Event::RamSettled(report) => {
                state.ram = None;
                state.last_ram = Some(report.clone());
            }
            Event::AttackDeclared(attacker, target, range) => {
                state.attack = Some(AttackState {
                    attacker: *attacker,
                    target: *target,
                    range: *range,
                    roll: None,
                    hits: None,
                    locations: Vec::new(),
                    damaged: Vec::new(),
                })
            }
            Event::AttackRolled(v) => {
                if let Some(a) = &mut state.attack {
                    a.roll = Some(*v);
                }
            }
            Event::Hits(n) => {
                if let Some(a) = &mut state.attack {
                    a.hits = Some(*n);
                }
            }
            Event::LocationRolled(v) => {
                let Some(a) = &mut state.attack else { return };
                a.locations.push(*v);
                let card = state
                    .players
                    .get(a.target)
                    .and_then(|p| p.at(Space::Slot(*v)))
                    .map(str::to_owned);
                if let Some(card) = card
                    && state.damaged.binary_search(&card).is_err()
                {
                    a.damaged.push(card.clone());
                    insert_sorted(&mut state.damaged, &card);
                }
            }
            Event::AttackSettled(report) => {
                state.attack = None;
                state.last_attack = Some(report.clone());
            }
            Event::Modifiers(seat, m) => {
                if let Some(p) = state.players.get_mut(*seat) {
                    p.modifiers = *m;
                }
            }
            Event::AbilityUsed(seat) => {
                if let Some(u) = state
                    .players
                    .get_mut(*seat)
                    .and_then(|p| p.ability_uses_left.as_mut())
                {
                    *u = u.saturating_sub(1);
                }
            }
            Event::SetFame(seat, v) => {
                if let Some(p) = state.players.get_mut(*seat) {
                    p.fame = *v;
                }
            }
            Event::SetPlace(seat, ring, position) => {
                if let Some(p) = state.players.get_mut(*seat) {
                    p.ring = *ring;
                    p.position = *position;
                }
            }
            Event::SetOrbits(seat, v) => {
                if let Some(p) = state.players.get_mut(*seat) {
                    p.orbits = *v;
                }
            }
            Event::SetAbilityUses(seat, v) => {
                if let Some(p) = state.players.get_mut(*seat) {
                    p.ability_uses_left = Some(*v);
                }
            }
            Event::SetRound(r) => state.round = *r,
        }
    }

    fn context(state: &State) -> MatchCtx {
        let phases = ["Setup", "Move", "Attack", "Search", "Cameo", "Final count"]
            .map(str::to_owned)
            .to_vec();
        let current = match state.step {
            Step::Setup => 0,
            Step::Move { .. } | Step::Ram { .. } | Step::RamDice | Step::RamTake { .. } => 1,
            Step::Attack { .. } | Step::AttackDie | Step::AttackBoost | Step::HitDice => 2,
            Step::Search { .. } | Step::Rebuild { .. } => 3,
            Step::Cameo => 4,
            Step::Over => 5,
        };
        let next = match state.step {
            Step::Setup => "round 1: the move phase, from the first player".to_owned(),
            Step::Move { .. } | Step::Ram { .. } | Step::RamDice | Step::RamTake { .. } => {
                "the next ship moves; after the last, the attack phase".to_owned()
            }
            Step::Attack { .. } | Step::AttackDie | Step::AttackBoost | Step::HitDice => {
                "the next ship may attack; after the last, the search phase".to_owned()
            }
            Step::Search { .. } => "discard damaged cards, then rebuild the ship".to_owned(),
            Step::Rebuild { .. } => "the next ship searches; after the last, cameo time".to_owned(),
            Step::Cameo if state.round >= ROUNDS => {
                "the final count: fame plus the fame of all junk".to_owned()
            }
            Step::Cameo => format!(
                "round {}: the first-player marker moves to {}",
                state.round + 1,
                state.name((state.first + 1) % state.players.len().max(1))
            ),
            Step::Over => "—".to_owned(),
        };
        MatchCtx {
            players: state.players.iter().map(|p| p.name.clone()).collect(),
            turn: state.round.max(1),
            phase: PhaseView {
                phases,
                current,
                step: step_text(state),
                next,
            },
            active: state.active(),
            leader: (state.step != Step::Setup).then_some(state.first),
            prompts: prompts(state),
        }
    }

    fn outcome(state: &State) -> Option<Outcome> {
        if state.step != Step::Over {
            return None;
        }
        let n = state.players.len();
        let totals: Vec<i32> = (0..n).map(|s| state.final_fame(s)).collect();
        let top = totals.iter().copied().max()?;
        let tied: Vec<Seat> = (0..n).filter(|&s| totals[s] == top).collect();
        let describe = |s: Seat| {
            format!(
                "{} {} ({} on the track + {} on junk)",
                state.name(s),
                totals[s],
                state.players[s].fame,
                state.junk_fame(s)
            )
        };
        if let [winner] = tied[..] {
            return Some(Outcome::Win {
                winner,
                reason: format!("the most fame after round {ROUNDS}: {}", describe(winner)),
            });
        }
        let ships: Vec<(Seat, i32)> = tied.iter().map(|&s| (s, state.best_ship(s))).collect();
        let best = ships.iter().map(|(_, v)| *v).max().unwrap_or(0);
        let winners: Vec<Seat> = ships
            .iter()
            .filter(|(_, v)| *v == best)
            .map(|(s, _)| *s)
            .collect();
        let listing = ships
            .iter()
            .map(|(s, v)| format!("{} {v}", state.name(*s)))
            .collect::<Vec<_>>()
            .join(", ");
        if let [winner] = winners[..] {
            Some(Outcome::Win {
                winner,
                reason: format!(
                    "tied on {top} fame; the best ship (Move + Attack + Search) breaks the tie: {listing}"
                ),
            })
        } else {
            Some(Outcome::Draw {
                reason: format!(
                    "shared victory: {} tie on {top} fame and on the best ship ({listing})",
                    winners
                        .iter()
                        .map(|s| state.name(*s))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            })
        }
    }

    fn trackers(state: &State) -> Vec<Tracker> {
        let big = 9999;
        let mut out = vec![
            Tracker {
                id: TrackerId::game("round"),
                label: "Round".into(),
                value: state.round as i32,
                min: 1,
                max: ROUNDS as i32,
            },
            Tracker {
                id: TrackerId::game("first"),
                label: "First player (seat)".into(),
                value: state.first as i32,
                min: 0,
                max: state.players.len() as i32 - 1,
            },
            Tracker {
                id: TrackerId::game("deck"),
                label: "Junk deck".into(),
                value: state.deck.len() as i32,
                min: 0,
                max: big,
            },
            Tracker {
                id: TrackerId::game("discard"),
                label: "Cooler (discard)".into(),
                value: state.discard.len() as i32,
                min: 0,
                max: big,
            },
        ];
        let floor = if state.rules.floor_stats_at_zero {
            0
        } else {
            -MAX_CHANGE
        };
        for (seat, p) in state.players.iter().enumerate() {
            let stats = state.stats(seat);
            let mut add =
                |name: &'static str, label: &'static str, value: i32, min: i32, max: i32| {
                    out.push(Tracker {
                        id: TrackerId::player(seat, name),
                        label: label.into(),
                        value,
                        min,
                        max,
                    });
                };
            add("fame", "Fame", p.fame, 0, big);
            add("move", "Move", stats.movement, floor, MAX_CHANGE);
            add("attack", "Attack", stats.attack, floor, MAX_CHANGE);
            add("search", "Search", stats.search, floor, MAX_CHANGE);
            add("ring", "Ring", i32::from(p.ring), 1, i32::from(RINGS));
            add(
                "position",
                "Position",
                p.position as i32,
                0,
                state.rules.ring_length(p.ring) as i32 - 1,
            );
            add("orbits", "Orbits", p.orbits as i32, 0, big);
            add("cargo", "Cargo hold", p.cargo.len() as i32, 0, big);
            add(
                "junk-fame",
                "Fame on junk",
                state.junk_fame(seat),
                -big,
                big,
            );
            // The score of the final count, as it stands now (fame + fame on junk).
            add("score", "Final count", state.final_fame(seat), -big, big);
            if let Some(u) = p.ability_uses_left {
                let limit = p
                    .character
                    .as_deref()
                    .and_then(|c| state.cards.get(c))
                    .and_then(|c| c.data.character())
                    .and_then(|c| c.ability_uses)
                    .unwrap_or(u);
                add(
                    "ability-uses",
                    "Ability uses left",
                    i32::from(u),
                    0,
                    i32::from(limit),
                );
            }
        }
        out
    }

    fn adjust(state: &State, tracker: &TrackerId, value: i32) -> Result<Vec<Event>, Impossible> {
        let seat = || {
            tracker
                .player
                .filter(|s| *s < state.players.len())
                .ok_or_else(|| Impossible::new(format!("`{tracker}` needs a player")))
        };
        let unsigned =
            |v: i32| u32::try_from(v).map_err(|_| Impossible::new(format!("{v} is below 0")));
        Ok(match tracker.name.as_ref() {
            "round" => vec![Event::SetRound(unsigned(value)?)],
            "first" => vec![Event::FirstIs(unsigned(value)? as usize)],
            "fame" => vec![Event::SetFame(seat()?, value)],
            name @ ("move" | "attack" | "search") => {
                let s = seat()?;
                let stat = match name {
                    "move" => Stat::Move,
                    "attack" => Stat::Attack,
                    _ => Stat::Search,
                };
                let raw = state.raw_stats(s).get(stat);
                let mut m = state.players[s].modifiers;
                *m.get_mut(stat) += value - raw;
                vec![Event::Modifiers(s, m)]
            }
            "ring" => {
                let s = seat()?;
                let ring = u8::try_from(value).map_err(|_| Impossible::new("rings are 1..=3"))?;
                let p = &state.players[s];
                let len = state.rules.ring_length(ring);
                vec![Event::SetPlace(s, ring, p.position.min(len - 1))]
            }
            "position" => {
                let s = seat()?;
                vec![Event::SetPlace(s, state.players[s].ring, unsigned(value)?)]
            }
            "orbits" => vec![Event::SetOrbits(seat()?, unsigned(value)?)],
            "ability-uses" => vec![Event::SetAbilityUses(
                seat()?,
                u8::try_from(value).map_err(|_| Impossible::new("uses are 0..=255"))?,
            )],
            "score" => {
                return Err(Impossible::new(
                    "the final count is fame plus the fame on junk: correct the fame, or move the junk cards",
                ));
            }
            "deck" | "discard" | "cargo" | "junk-fame" => {
                return Err(Impossible::new(format!(
                    "`{}` counts cards; move the cards themselves (draw, equip, effect) instead",
                    tracker.name
                )));
            }
            other => {
                return Err(Impossible::new(format!(
                    "Space Junk keeps no number called `{other}`"
                )));
            }
        })
    }

    fn die_prompts(state: &State) -> Vec<Prompt> {
        let mut p = prompts(state);
        p.retain(|p| matches!(p.kind, PromptKind::Die { .. }));
        p
    }

    fn fulfil(state: &State, prompt: &Prompt, roll: &Roll) -> Result<Vec<Event>, Impossible> {
        if roll.sides != 6 {
            return Err(Impossible::new("Space Junk uses six-sided dice"));
        }
        let mut b = Builder::new(state);
        match state.step {
            Step::RamDice => {
                let Some(ram) = &state.ram else {
                    return Err(Impossible::new("no ram is open"));
                };
                let seat = if prompt.id.ends_with("-rammer") {
                    ram.rammer
                } else {
                    ram.target
                };
                b.push(Event::RamRolled(seat, roll.value));
                let Some(r) = b.state.ram.clone() else {
                    return Ok(b.events);
                };
                if let (Some(x), Some(y)) = (r.rammer_roll, r.target_roll) {
                    let a = i32::from(x) + 1 + state.r_cards(r.rammer);
                    let t = i32::from(y) + state.r_cards(r.target);
                    let winner = match a.cmp(&t) {
                        std::cmp::Ordering::Greater => Some((r.rammer, r.target)),
                        std::cmp::Ordering::Less => Some((r.target, r.rammer)),
                        std::cmp::Ordering::Equal => None,
                    };
                    b.push(Event::RamSettled(RamReport {
                        round: state.round,
                        rammer: r.rammer,
                        target: r.target,
                        rammer_total: a,
                        target_total: t,
                        winner: winner.map(|(w, _)| w),
                    }));
                    match winner {
                        Some((winner, loser)) if !state.takeable(loser).is_empty() => {
                            b.push(Event::StepTo(Step::RamTake { winner, loser }));
                        }
                        _ => b.end_turn(Phase::Move, r.rammer),
                    }
                }
            }
            Step::AttackDie => {
                b.push(Event::AttackRolled(roll.value));
                let attacker = state.attack.as_ref().map_or(0, |a| a.attacker);
                if state.star_cards(attacker, Stat::Attack).is_empty() {
                    b.settle_hits();
                } else {
                    b.push(Event::StepTo(Step::AttackBoost));
                }
            }
            Step::HitDice => {
                b.push(Event::LocationRolled(roll.value));
                let done = b
                    .state
                    .attack
                    .as_ref()
                    .is_none_or(|a| a.locations.len() as u32 >= a.hits.unwrap_or(0));
                if done {
                    b.finish_attack();
                }
            }
            _ => {
                return Err(Impossible::new(format!(
                    "no die is asked for at {}",
                    step_text(state)
                )));
            }
        }
        Ok(b.events)
    }

    fn candidate_moves(state: &State) -> Vec<Move> {
        let mut out = Vec::new();
        let boosts = |out: &mut Vec<Move>, seat: Seat, stat: Stat| {
            for card in state.star_cards(seat, stat) {
                out.push(Move::Boost { player: seat, card });
            }
        };
        match state.step {
            Step::Setup => {
                if let Some(seat) = state.players.iter().position(|p| p.character.is_none()) {
                    for (id, c) in state.cards.iter() {
                        if c.data.character().is_some()
                            && !state
                                .players
                                .iter()
                                .any(|p| p.character.as_deref() == Some(id.as_str()))
                        {
                            out.push(Move::DealCharacter {
                                player: seat,
                                card: id.clone(),
                            });
                        }
                    }
                } else {
                    out.extend((0..state.players.len()).map(|player| Move::FirstPlayer { player }));
                }
            }
            Step::Move { seat } => {
                boosts(&mut out, seat, Stat::Move);
                for ring in 1..=RINGS {
                    out.push(Move::MoveShip {
                        player: seat,
                        ring,
                        spaces: None,
                    });
                }
            }
            Step::Ram { seat } => {
                for target in state.ships_here(seat) {
                    out.push(Move::Ram {
                        player: seat,
                        target,
                    });
                }
                out.push(Move::NoRam { player: seat });
            }
            Step::RamTake { winner, loser } => {
                for card in state.takeable(loser) {
                    out.push(Move::TakeJunk {
                        player: winner,
                        card,
                    });
                }
                out.push(Move::NoTake { player: winner });
            }
            Step::Attack { seat } => {
                boosts(&mut out, seat, Stat::Attack);
                // Every range the players may measure up to [`OFFERED_RANGE`]: the panel picks one
                // with a stepper.
                for target in (0..state.players.len()).filter(|t| *t != seat) {
                    for range in 0..=OFFERED_RANGE {
                        out.push(Move::Attack {
                            player: seat,
                            target,
                            range,
                        });
                    }
                }
                out.push(Move::NoAttack { player: seat });
            }
            Step::AttackDie | Step::AttackBoost => {
                if let Some(a) = &state.attack {
                    boosts(&mut out, a.attacker, Stat::Attack);
                    if state.step == Step::AttackBoost {
                        out.push(Move::ConfirmHits { player: a.attacker });
                    }
                }
            }
            Step::Search { seat } => {
                boosts(&mut out, seat, Stat::Search);
                let n = state.draw_count(seat);
                let mut cards: Vec<String> = state.deck.iter().take(n).cloned().collect();
                if cards.len() < n {
                    cards.extend(state.discard.iter().take(n - cards.len()).cloned());
                }
                out.push(Move::Draw {
                    player: seat,
                    cards,
                });
                if n <= state.deck.len() && n > 0 {
                    let skip = state.deck.len() - n;
                    out.push(Move::Draw {
                        player: seat,
                        cards: state.deck.iter().skip(skip).cloned().collect(),
                    });
                }
            }
            Step::Rebuild { seat } => {
                for card in &state.players[seat].drawn {
                    for space in Space::ALL {
                        out.push(Move::Equip {
                            player: seat,
                            card: card.clone(),
                            space,
                        });
                    }
                }
                out.push(Move::FinishSearch { player: seat });
            }
            Step::Cameo => out.push(Move::EndRound),
            Step::RamDice | Step::HitDice | Step::Over => {}
        }
        out
    }

    fn describe(state: &State, mv: &Move) -> String {
        let name = |s: &Seat| state.name(*s).to_owned();
        let card = |id: &str| state.card_label(id);
        match mv {
            Move::DealCharacter { player, card: c } => {
                format!("{} is dealt {}", name(player), card(c))
            }
            Move::FirstPlayer { player } => {
                format!("{} is the first player; round 1 begins", name(player))
            }
            Move::Boost { player, card: c } => {
                let stat = state.phase().map_or(Stat::Move, Phase::stat);
                format!(
                    "{} damages {} for {} +{}",
                    name(player),
                    card(c),
                    stat_name(stat),
                    stat.star_boost()
                )
            }
            Move::MoveShip {
                player,
                ring,
                spaces,
            } => {
                let budget = state.boosted(*player, Stat::Move).max(0);
                format!(
                    "{} flies in ring {ring}, {} spaces clockwise",
                    name(player),
                    spaces.map_or(budget, |s| s as i32)
                )
            }
            Move::Ram { player, target } => format!("{} rams {}", name(player), name(target)),
            Move::NoRam { player } => format!("{} does not ram", name(player)),
            Move::TakeJunk { player, card: c } => {
                format!("{} takes {} as ram spoils", name(player), card(c))
            }
            Move::NoTake { player } => format!("{} takes nothing", name(player)),
            Move::Attack {
                player,
                target,
                range,
            } => format!(
                "{} attacks {} at range {range} (Attack {})",
                name(player),
                name(target),
                state.boosted(*player, Stat::Attack)
            ),
            Move::NoAttack { player } => format!("{} does not attack", name(player)),
            Move::ConfirmHits { player } => format!("{} settles the hits", name(player)),
            Move::Draw { player, cards } => format!(
                "{} draws {} card(s): {}",
                name(player),
                cards.len(),
                if cards.is_empty() {
                    "none".to_owned()
                } else {
                    cards.iter().map(|c| card(c)).collect::<Vec<_>>().join(", ")
                }
            ),
            Move::Equip {
                player,
                card: c,
                space,
            } => format!("{} puts {} in {}", name(player), card(c), space.label()),
            Move::Unequip { player, card: c } => {
                format!("{} puts {} in the cargo hold", name(player), card(c))
            }
            Move::FinishSearch { player } => {
                format!("{} finishes the ship; the rest goes to cargo", name(player))
            }
            Move::EndRound => {
                if state.round >= ROUNDS {
                    "Cameo time is over: the final count".to_owned()
                } else {
                    format!("Cameo time is over: round {} begins", state.round + 1)
                }
            }
            Move::Effect {
                player,
                fame,
                movement,
                attack,
                search,
                spaces,
                repair,
                ability,
                note,
            } => {
                let mut parts = Vec::new();
                for (label, v) in [
                    ("fame", fame),
                    ("Move", movement),
                    ("Attack", attack),
                    ("Search", search),
                ] {
                    if *v != 0 {
                        parts.push(format!("{label} {v:+}"));
                    }
                }
                if *spaces > 0 {
                    parts.push(format!("{spaces} more spaces"));
                }
                if let Some(c) = repair {
                    parts.push(format!("{} repaired", card(c)));
                }
                if *ability {
                    parts.push("one ability use".to_owned());
                }
                format!(
                    "{}'s effect: {}",
                    name(player),
                    crate::core::effect_summary(&parts, note)
                )
            }
        }
    }
}

fn prompts(state: &State) -> Vec<Prompt> {
    let r = state.round;
    let choice = |id: String, player: Option<Seat>, text: String| Prompt {
        id,
        player,
        kind: PromptKind::Choice,
        text,
    };
    let die = |id: String, player: Seat, text: String| Prompt {
        id,
        player: Some(player),
        kind: PromptKind::Die { sides: 6 },
        text,
    };
    let name = |s: Seat| state.name(s).to_owned();
    let mut out = Vec::new();
    match state.step {
        Step::Setup => match state.players.iter().position(|p| p.character.is_none()) {
            Some(seat) => out.push(choice(
                format!("deal-{seat}"),
                Some(seat),
                format!("Deal {} a random character card", name(seat)),
            )),
            None => out.push(choice(
                "first-player".into(),
                None,
                "Choose the first player at random".into(),
            )),
        },
        Step::Move { seat } => out.push(choice(
            format!("r{r}-move-{seat}"),
            Some(seat),
            format!(
                "{}: choose a ring and move {} spaces (damage *-Move cards first for +3 each)",
                name(seat),
                state.boosted(seat, Stat::Move).max(0)
            ),
        )),
        Step::Ram { seat } => out.push(choice(
            format!("r{r}-ram-{seat}"),
            Some(seat),
            format!("{}: ram a ship on your space, or not", name(seat)),
        )),
        Step::RamDice => {
            if let Some(ram) = &state.ram {
                if ram.rammer_roll.is_none() {
                    out.push(die(
                        format!("r{r}-ram-rammer"),
                        ram.rammer,
                        format!(
                            "{}: ram die (+1 for ramming, +{} for R cards)",
                            name(ram.rammer),
                            state.r_cards(ram.rammer)
                        ),
                    ));
                }
                if ram.target_roll.is_none() {
                    out.push(die(
                        format!("r{r}-ram-target"),
                        ram.target,
                        format!(
                            "{}: ram die against {} (+{} for R cards)",
                            name(ram.target),
                            name(ram.rammer),
                            state.r_cards(ram.target)
                        ),
                    ));
                }
            }
        }
        Step::RamTake { winner, loser } => out.push(choice(
            format!("r{r}-take-{winner}"),
            Some(winner),
            format!(
                "{}: take one piece of junk from {}'s ship, or nothing",
                name(winner),
                name(loser)
            ),
        )),
        Step::Attack { seat } => out.push(choice(
            format!("r{r}-attack-{seat}"),
            Some(seat),
            format!(
                "{}: attack a ship (enter the range counted on the board), or pass",
                name(seat)
            ),
        )),
        Step::AttackDie => {
            if let Some(a) = &state.attack {
                out.push(die(
                    format!("r{r}-attack-die-{}", a.attacker),
                    a.attacker,
                    format!(
                        "{}: attack die against {} (Attack {}, range {})",
                        name(a.attacker),
                        name(a.target),
                        state.boosted(a.attacker, Stat::Attack),
                        a.range
                    ),
                ));
            }
        }
        Step::AttackBoost => {
            if let Some(a) = &state.attack {
                let total = i32::from(a.roll.unwrap_or(0))
                    + state.boosted(a.attacker, Stat::Attack)
                    - a.range as i32;
                out.push(choice(
                    format!("r{r}-attack-boost-{}", a.attacker),
                    Some(a.attacker),
                    format!(
                        "{}: result {total} ({} hit(s)); damage *-Attack cards for +4, or settle",
                        name(a.attacker),
                        total.max(0) / HIT_STEP
                    ),
                ));
            }
        }
        Step::HitDice => {
            if let Some(a) = &state.attack {
                let hits = a.hits.unwrap_or(0) as usize;
                for i in a.locations.len()..hits {
                    out.push(die(
                        format!("r{r}-hit-{}-{}", a.attacker, i + 1),
                        a.attacker,
                        format!(
                            "{}: hit location die {} of {hits} on {}'s ship (1–2 Move, 3–4 Attack, 5–6 Search)",
                            name(a.attacker),
                            i + 1,
                            name(a.target)
                        ),
                    ));
                }
            }
        }
        Step::Search { seat } => out.push(choice(
            format!("r{r}-search-{seat}"),
            Some(seat),
            format!(
                "{}: draw {} junk card(s) (damage *-Search cards first for +2 each)",
                name(seat),
                state.draw_count(seat)
            ),
        )),
        Step::Rebuild { seat } => out.push(choice(
            format!("r{r}-rebuild-{seat}"),
            Some(seat),
            format!(
                "{}: rebuild the ship from new and cargo cards, then finish",
                name(seat)
            ),
        )),
        Step::Cameo => out.push(choice(
            format!("r{r}-cameo"),
            None,
            format!(
                "Cameo time: a short story each, starting with {}",
                name(state.first)
            ),
        )),
        Step::Over => {}
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(players: usize) -> State {
        let cat = match Catalogue::builtin(GameId::SpaceJunk) {
            Ok(c) => c,
            Err(e) => unreachable!("demo set: {e}"),
        };
        let names = ["A", "B", "C", "D", "E", "F"];
        let chars = ["SJ01", "SJ02", "SJ03", "SJ04", "SJ05", "SJ06"];
        let header = match demo_header(&cat, &names[..players], &chars[..players]) {
            Ok(h) => h,
            Err(e) => unreachable!("{e}"),
        };
        match SpaceJunk::setup(&header.players, &Rules::default(), &cat) {
            Ok(s) => s,
            Err(e) => unreachable!("{e}"),
        }
    }

    #[test]
    fn spaces_read_numbers_and_fuselage() {
        let s: Space = serde_json::from_str("3").unwrap_or(Space::Fuselage);
        assert_eq!(s, Space::Slot(3));
        assert_eq!(s.kind(), Slot::Attack);
        let f: Space = serde_json::from_str("\"fuselage\"").unwrap_or(Space::Slot(1));
        assert_eq!(f, Space::Fuselage);
        assert!(serde_json::from_str::<Space>("7").is_err());
        assert_eq!(
            serde_json::to_string(&Space::Slot(5)).ok().as_deref(),
            Some("5")
        );
    }

    #[test]
    fn a_card_list_reads_a_text_or_an_array() {
        let a: Move = serde_json::from_str(r#"{"type":"draw","player":0,"cards":"SJ10, SJ11"}"#)
            .unwrap_or(Move::EndRound);
        let b: Move = serde_json::from_str(r#"{"type":"draw","player":0,"cards":["SJ10","SJ11"]}"#)
            .unwrap_or(Move::EndRound);
        assert_eq!(a, b);
        assert!(matches!(a, Move::Draw { ref cards, .. } if cards.len() == 2));
    }

    #[test]
    fn orbit_fame_counts_each_pass_of_the_start_line() {
        // §11 #7: L = 16, position 12, Move 6 → position 2, one orbit.
        let mut s = state(2);
        s.players[0].position = 12;
        let mut b = Builder::new(&s);
        b.fly(0, 1, 6);
        assert_eq!(
            (b.state.players[0].position, b.state.players[0].orbits),
            (2, 1)
        );
        assert_eq!(b.state.players[0].fame, 5);
        let mut b = Builder::new(&s);
        b.fly(0, 1, 22);
        assert_eq!(
            (b.state.players[0].position, b.state.players[0].orbits),
            (2, 2)
        );
        assert_eq!(b.state.players[0].fame, 10);
    }

    #[test]
    fn going_outward_takes_the_spot_further_back() {
        // Inner ring 16, middle 24: position 5 of 16 maps to 7.5 → 7 of 24.
        let mut s = state(2);
        s.players[0].position = 5;
        let mut b = Builder::new(&s);
        b.fly(0, 2, 0);
        assert_eq!(
            (b.state.players[0].ring, b.state.players[0].position),
            (2, 7)
        );
    }
}
