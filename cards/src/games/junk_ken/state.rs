//! JUNK-KEN's state: the house rules, the turn's steps, each player's character, supporter,
//! gear, field and piles, and the moves and events of a match.

use super::card::{Hand, JunkKenCard, SkillIcon};
use super::deck::DeckRules;
use crate::core::{CardList, Impossible, Seat, Violation};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Cards drawn at setup.
pub const START_HAND: i32 = 4;
/// Largest change one `effect` move may enter for a number.
pub const MAX_CHANGE: i32 = 99;
/// Highest HP a manual adjustment may set.
pub const MAX_HP: i32 = 99;

/// Holdings a draft player must exceed before stopping to pick piles (§8).
pub const DRAFT_HOLDINGS: usize = 40;

/// The draft's pack purchase (§8): the pile sizes dealt from `non_ex` main-deck cards and `ex`
/// EX cards. Piles of 5 (an incomplete last pile is not used), one EX card added to each pile in
/// turn; surplus EX cards are not used.
pub fn draft_piles(non_ex: usize, ex: usize) -> Vec<usize> {
    (0..non_ex / 5)
        .map(|i| if i < ex { 6 } else { 5 })
        .collect()
}

/// Picking these piles in order: the number of picks and the holdings when they first exceed
/// [`DRAFT_HOLDINGS`]; `None` if they never do.
pub fn picks_to_pass(piles: &[usize]) -> Option<(usize, usize)> {
    let mut held = 0;
    for (i, p) in piles.iter().enumerate() {
        held += p;
        if held > DRAFT_HOLDINGS {
            return Some((i + 1, held));
        }
    }
    None
}

/// The marker type of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JunkKen;

/// House rules: the gaps of `rules/junk-ken.md` §10 (and the §8 draft variant) that players could
/// settle differently. Every key is optional; the defaults are the digest's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Rules {
    /// §8: the draft (pack purchase) variant: 30-card decks, no cost cap, 2 side cards, a loss on
    /// the 3rd defeat, surrender allowed. Default false.
    pub draft: bool,
    /// §2: refuse decks that break the construction rules at setup. Default true.
    pub check_decks: bool,
    /// §10 #2: damage each character takes on a tie (あいこ); "+1 attack" never applies to it.
    /// Default 0 (no standard tie action).
    pub tie_damage: u8,
    /// §10 #3: a tie is thrown again (and does nothing) instead of ending the throw. Default false.
    pub rethrow_ties: bool,
    /// §10 #5: a player with an empty battle zone and cards in hand must place a character.
    /// Default true.
    pub must_place: bool,
    /// §10 #7: healing stops at the HP die's highest face. Default true.
    pub hp_cap: bool,
    /// §10 #8: a matching supporter's action comes on top of the character's (false: instead of
    /// it). Default true.
    pub supporter_adds: bool,
    /// §10 #9: completed turn ends in the battle zone before a character may awaken. Default 2.
    pub awaken_turns: u8,
    /// §10 #11: Bullet counters carry over on replacement too (the FAQ says awakening only).
    /// Default false.
    pub bullet_on_replacement: bool,
    /// §10 #12: Bullet counters may be spent at any time, not only at the turn end. Default false.
    pub bullet_any_time: bool,
    /// §10 #13: a field destroyed by an advantaged field is removed from the game (false: to the
    /// graveyard). Default true.
    pub field_duel_removes: bool,
    /// §10 #14: the replaced character goes back to hand (false: to the graveyard). Default true.
    pub replaced_to_hand: bool,
    /// §10 #14: the declarer's DRAW and HP actions still work while replacing (only ATK damage and
    /// card effects are suppressed). Default true.
    pub replacement_keeps_draw_hp: bool,
    /// §10 #19: Haste may be used in any step, not only the set phase. Default false.
    pub haste_any_time: bool,
    /// The dice the table has, by sides (`6,8` or `[6, 8]`): a Dice-rolling skill whose die is
    /// not among them is skipped at the set phase's start and the log says so (seed ■ダイスロール
    /// スキル: 「使用できるサイコロがない場合、そのスキルは発動できません」). Empty (the default):
    /// every die a card asks for is at the table.
    #[serde(deserialize_with = "dice_list")]
    pub table_dice: Vec<u8>,
    /// §8 draft, pack purchase 1: the cards the app deals into piles, one entry per physical
    /// copy, or `ID*N` for N copies, or `all*N` for N copies of every card of the set (EX cards,
    /// the extra deck's awakening and field cards, included). The players pick piles and build
    /// their decks from their holdings in the match, before the battle. Empty (the default): the
    /// decks come with the players, built away from the app.
    pub draft_pool: CardList,
    /// The shuffle of [`Rules::draft_pool`] (the window picks one at random and stores it, so a
    /// replay deals the same piles).
    pub draft_seed: u64,
    /// §8 draft, pack purchase 2: the holdings and the piles left over from the draft's previous
    /// battle, and its winner (who exchanges 2 cards with the loser first). Written by the app
    /// for the next battle of a draft ([`State::next_battle`]).
    pub draft_carry: Option<DraftCarry>,
}

/// A draft carried over to its next battle (§8 ④パック購入フェーズ2).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DraftCarry {
    /// The battle about to be played (2 for the one after the first).
    pub battle: u32,
    /// Each player's holdings (持ち札), by seat.
    pub holdings: [CardList; 2],
    /// The piles nobody picked, face down, in their order on the table.
    pub piles: Vec<CardList>,
    /// The previous battle's winner; `None` after a draw (no exchange then).
    pub winner: Option<Seat>,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            draft: false,
            check_decks: true,
            tie_damage: 0,
            rethrow_ties: false,
            must_place: true,
            hp_cap: true,
            supporter_adds: true,
            awaken_turns: 2,
            bullet_on_replacement: false,
            bullet_any_time: false,
            field_duel_removes: true,
            replaced_to_hand: true,
            replacement_keeps_draw_hp: true,
            haste_any_time: false,
            table_dice: Vec::new(),
            draft_pool: CardList::default(),
            draft_seed: 0,
            draft_carry: None,
        }
    }
}

/// Reads the table's dice: a list of sides, a number, or a text like `6,8` or `d6 d8`.
fn dice_list<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
    use serde::de::Error;
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Raw {
        One(u8),
        Many(Vec<u8>),
        Text(String),
    }
    let mut out = match Raw::deserialize(d)? {
        Raw::One(n) => vec![n],
        Raw::Many(v) => v,
        Raw::Text(t) => t
            .split(|c: char| c == ',' || c.is_whitespace())
            .filter(|w| !w.is_empty())
            .map(|w| {
                w.trim_start_matches(['d', 'D']).parse::<u8>().map_err(|_| {
                    D::Error::custom(format!(
                        "table_dice: `{}` is not a die (write e.g. 6,8 or d6 d8)",
                        crate::core::clip_text(w, 20)
                    ))
                })
            })
            .collect::<Result<_, _>>()?,
    };
    if out.contains(&0) {
        return Err(D::Error::custom("table_dice: a die has at least 1 side"));
    }
    out.sort_unstable();
    out.dedup();
    Ok(out)
}

impl Rules {
    /// The deck-construction numbers these rules use.
    pub fn deck_rules(&self) -> DeckRules {
        if self.draft {
            DeckRules::DRAFT
        } else {
            DeckRules::STANDARD
        }
    }

    /// True when the table has a die of this many sides (always, with no dice listed).
    pub fn table_has_die(&self, sides: u8) -> bool {
        self.table_dice.is_empty() || self.table_dice.contains(&sides)
    }

    /// Defeats that lose the match: one more than the side cards (2; 3 in the draft).
    pub fn loss_threshold(&self) -> u8 {
        u8::try_from(self.deck_rules().side_cards + 1).unwrap_or(u8::MAX)
    }
}

/// Where the turn stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Step {
    /// Draft ④, before pack purchase 2: the previous battle's winner takes 2 cards from the
    /// loser's holdings and gives 2 back.
    Exchange,
    /// Draft ① / ④: pack purchase: the players pick whole piles in turn.
    Purchase,
    /// Draft ② / ⑤: deck building from the holdings (5 minutes).
    Build,
    /// S0: the set phase begins; Dice-rolling skills wait for their dice.
    SetStart,
    /// S1: both players set cards, then declare the set phase done.
    Set,
    /// J0: replacement may be declared, then janken is thrown.
    Janken,
    /// J0 after the throw: effects resolved by hand are entered; then the janken phase ends.
    Resolve,
    /// J1: a player who declared replacement swaps the character with a hand card (or keeps it).
    Replace,
    /// T0: Bullet counters may be spent and Necromancy used; then the turn ends.
    TurnEnd,
    /// The match is over.
    Over,
}

impl Step {
    /// A draft's steps before its battle (pack purchase, the exchange, deck building): the
    /// battle's numbers and turns have not begun.
    #[must_use]
    pub fn before_battle(self) -> bool {
        matches!(self, Step::Exchange | Step::Purchase | Step::Build)
    }
}

/// One card in a graveyard.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GraveCard {
    /// Card id.
    pub card: String,
    /// Turned face down by Necromancy: it has no card data.
    pub face_down: bool,
}

/// An attack bonus and the card in play that gives it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bonus {
    /// The card giving it (a gear, supporter, field or the character itself).
    pub card: String,
    /// Extra damage of the character's ATK actions.
    pub atk: i32,
}

/// The character in a battle zone.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Character {
    /// The cards of the character, bottom first; the last is the top card (an awakening card
    /// after awakening) whose data the character uses.
    pub stack: Vec<String>,
    /// Current HP (体力); 0 until the HP die is rolled.
    pub hp: i32,
    /// Faces of the HP die.
    pub hp_die: u8,
    /// False while the HP die is still owed.
    pub hp_rolled: bool,
    /// Completed turn ends in the battle zone (for awakening).
    pub turns: u32,
    /// Clockwise rotation in degrees (0 = upright), for Clockwise characters.
    pub rotation: Option<u16>,
    /// Bullet counters.
    pub bullet: u8,
    /// A Dice-rolling skill's condition held at the last set phase start.
    pub dice_active: bool,
}

impl Character {
    /// The top card's id.
    pub fn top(&self) -> &str {
        self.stack.last().map_or("", String::as_str)
    }
}

/// What lies in a support zone.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Support {
    /// Nothing.
    #[default]
    Empty,
    /// A supporter (a card face down, or face up after Haste).
    Supporter {
        /// Card id (kept secret by the UI while face down).
        card: String,
        /// Janken phases ended since it was placed; at 2 it is destroyed.
        age: u8,
        /// Its owner won with its attribute this turn: destroyed at the turn end.
        won: bool,
        /// Turned face up by Haste: +1 to its action, destroyed at the turn end.
        face_up: bool,
    },
    /// A gear card face up with its durability die.
    Gear {
        /// Card id.
        card: String,
        /// The durability die; below 1 the gear is removed at the turn end.
        durability: i32,
    },
}

/// A field card in a field zone.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Field {
    /// Card id.
    pub card: String,
    /// The countdown die.
    pub die: i32,
    /// The turn it was placed (a field placed the same turn is safe from the attribute duel).
    pub placed_turn: u32,
}

/// One player's side of the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerState {
    /// The name at the table.
    pub name: String,
    /// Cards in hand.
    pub hand: i32,
    /// Cards in the deck (山札).
    pub deck: i32,
    /// Cards in the side zone (サイド).
    pub side: i32,
    /// Main-deck card ids not in play, graveyard or removed (deck, hand and side), sorted.
    pub unplayed: Vec<String>,
    /// Extra-deck card ids still in the extra deck, sorted.
    pub extra: Vec<String>,
    /// The graveyard (墓地), oldest first.
    pub graveyard: Vec<GraveCard>,
    /// Cards removed from the game (ゲームから除外), in order.
    pub removed: Vec<String>,
    /// The battle zone.
    pub character: Option<Character>,
    /// The support zone.
    pub support: Support,
    /// The field zone.
    pub field: Option<Field>,
    /// Characters of this player destroyed so far.
    pub defeated: u8,
    /// Extra damage of this player's character's ATK actions ("+1 attack" effects) set by hand:
    /// it lasts until changed.
    pub atk_bonus: i32,
    /// "+N attack" given by cards in play (`bonus` moves): each ends when its card leaves play.
    #[serde(default)]
    pub bonuses: Vec<Bonus>,
    /// Declared the set phase done this turn.
    pub set_done: bool,
    /// A declared replacement (交代) still to be carried out.
    pub replacing: bool,
    /// Declared replacement this turn (no Bullet counter, no Necromancy this turn end).
    pub declared_replacement: bool,
    /// The hand thrown this turn.
    pub thrown: Option<Hand>,
    /// A character of this player was destroyed this turn.
    pub destroyed_this_turn: bool,
    /// Necromancy may flip a graveyard card this turn end.
    pub necromancy_ready: bool,
    /// Surrendered (draft variant).
    pub surrendered: bool,
}

impl PlayerState {
    pub(super) fn take_unplayed(&mut self, card: &str) -> bool {
        match self.unplayed.binary_search_by(|c| c.as_str().cmp(card)) {
            Ok(i) => {
                self.unplayed.remove(i);
                true
            }
            Err(_) => false,
        }
    }
    pub(super) fn put_unplayed(&mut self, card: String) {
        let i = self
            .unplayed
            .binary_search(&card)
            .unwrap_or_else(|insert| insert);
        self.unplayed.insert(i, card);
    }
    pub(super) fn holds(&self, card: &str) -> bool {
        self.unplayed
            .binary_search_by(|c| c.as_str().cmp(card))
            .is_ok()
    }
    pub(super) fn has_extra(&self, card: &str) -> bool {
        self.extra
            .binary_search_by(|c| c.as_str().cmp(card))
            .is_ok()
    }
}

/// What an open die prompt is for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "for", rename_all = "kebab-case")]
pub enum DiePurpose {
    /// The HP die of a character placed or awakened.
    Hp,
    /// A Dice-rolling skill's dice: the total so far and the dice still to roll.
    DiceSkill {
        /// Sum of the dice rolled so far.
        total: u32,
        /// Dice still owed.
        left: u8,
    },
    /// Necromancy's random pick among the face-down cards of a graveyard.
    Necromancy {
        /// Whose graveyard.
        graveyard: Seat,
    },
}

/// One open die prompt.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DieAsk {
    /// Prompt id (`d1`, `d2`, …).
    pub id: String,
    /// Who rolls.
    pub seat: Seat,
    /// Faces.
    pub sides: u8,
    /// What it is for.
    pub purpose: DiePurpose,
}

/// The last throw's result, for the table screen.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JankenReport {
    /// Turn.
    pub turn: u32,
    /// The hands by seat.
    pub hands: [Hand; 2],
    /// The winner; `None` on a tie.
    pub winner: Option<Seat>,
    /// What happened, in sentences.
    pub notes: Vec<String>,
}

/// Game-wide numbers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Table {
    /// Turn number, from 1.
    pub turn: u32,
    /// Current step.
    pub step: Step,
    /// Open die prompts, oldest first.
    pub dice: Vec<DieAsk>,
    /// Counter for prompt ids.
    pub next_die: u32,
    /// The last throw.
    pub last_janken: Option<JankenReport>,
    /// The draft's pack purchase and deck building (§8), when the match has them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draft: Option<Box<Draft>>,
}

/// One pile of the draft's pack purchase: 5 cards face down, and 1 EX card while they last.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pile {
    /// The cards (face down until picked: the window does not show them).
    pub cards: Vec<String>,
    /// Who picked it; `None` while it lies on the table.
    pub taken: Option<Seat>,
}

/// The draft's pack purchase and deck building (§8 ①②, ④⑤).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Draft {
    /// Which battle of the draft this match is (1, 2, …).
    pub battle: u32,
    /// The piles on the table, numbered from 1 in this order.
    pub piles: Vec<Pile>,
    /// Each player's holdings (持ち札), sorted.
    pub holdings: [Vec<String>; 2],
    /// Whose pick it is; `None` before the first pick (the janken winner picks first) or when
    /// either may pick.
    pub picker: Option<Seat>,
    /// The previous battle's winner (pack purchase 2: exchange, then the loser picks first).
    pub winner: Option<Seat>,
    /// Each player's deck as it is being built from the holdings, sorted.
    pub decks: [Vec<String>; 2],
    /// The player has declared the deck built.
    pub built: [bool; 2],
    /// The cards the winner took from the loser in the exchange so far.
    #[serde(default)]
    pub took: Vec<String>,
    /// The cards the winner gave the loser in the exchange so far.
    #[serde(default)]
    pub gave: Vec<String>,
}

impl Draft {
    /// Pack purchase 1 (not 2): picking ends for a player whose holdings exceed 40.
    pub fn first_purchase(&self) -> bool {
        self.battle <= 1
    }
    /// True while this player may still pick: in pack purchase 1 until the holdings exceed 40;
    /// in pack purchase 2 while piles are left.
    pub fn may_pick(&self, seat: Seat) -> bool {
        self.piles.iter().any(|p| p.taken.is_none())
            && (!self.first_purchase()
                || self.holdings.get(seat).map_or(0, Vec::len) <= DRAFT_HOLDINGS)
    }
}

/// The card data the game needs, copied from the catalogue at setup.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardInfo {
    /// Japanese name.
    pub name_ja: String,
    /// English name.
    pub name_en: String,
    /// Rules text (CHARACTER SKILL, gear or field effect).
    pub text: String,
    /// The card's data.
    pub data: JunkKenCard,
}

impl CardInfo {
    /// `ネジ丸 (Screw-Maru)`.
    pub fn label(&self) -> String {
        format!("{} ({})", self.name_ja, self.name_en)
    }
    pub(super) fn bullet(&self) -> Option<(u8, &[Hand], u8)> {
        self.data.icons().iter().find_map(|i| match i {
            SkillIcon::Bullet {
                level,
                marked_hands,
                cost,
            } => Some((*level, marked_hands.as_slice(), *cost)),
            _ => None,
        })
    }
    pub(super) fn necromancy(&self) -> Option<&[Hand]> {
        self.data.icons().iter().find_map(|i| match i {
            SkillIcon::Necromancy { marked_hands } => Some(marked_hands.as_slice()),
            _ => None,
        })
    }
    pub(super) fn clockwise(&self) -> bool {
        self.data.icons().contains(&SkillIcon::Clockwise)
    }
    pub(super) fn haste(&self) -> bool {
        self.data.icons().contains(&SkillIcon::Haste)
    }
    pub(super) fn dice_roll(&self) -> Option<(&super::card::DiceRoll, &str)> {
        self.data.icons().iter().find_map(|i| match i {
            SkillIcon::DiceRolling { roll, effect } => Some((roll, effect.as_str())),
            _ => None,
        })
    }
}

/// The whole state of a JUNK-KEN match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// House rules.
    pub rules: Rules,
    /// Card data by id (shared: it never changes during a match).
    pub cards: Arc<BTreeMap<String, CardInfo>>,
    /// The two players.
    pub players: [PlayerState; 2],
    /// Turn, step, open dice.
    pub table: Table,
}

/// A move at the JUNK-KEN table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Move {
    /// S0: no suitable die is at hand (or finding it takes too long): the player's Dice-rolling
    /// skill does not fire this turn.
    SkipDiceRoll {
        /// Whose skill.
        player: Seat,
    },
    /// S1: a hand card face up into the empty battle zone; its HP die is owed.
    PlaceCharacter {
        /// Who places.
        player: Seat,
        /// Card id.
        card: String,
    },
    /// S1: a hand card face down into the empty support zone (the supporter).
    PlaceSupporter {
        /// Who places.
        player: Seat,
        /// Card id (the UI keeps it secret).
        card: String,
    },
    /// S1: a gear card face up into the empty support zone, its die on the durability.
    PlaceGear {
        /// Who places.
        player: Seat,
        /// Card id.
        card: String,
    },
    /// S1: a field card from the extra deck into the empty field zone, its die on the count.
    PlaceField {
        /// Who places.
        player: Seat,
        /// Card id.
        card: String,
    },
    /// S1: lower the own field die by the printed amount to use its effect.
    SpendField {
        /// Whose field.
        player: Seat,
    },
    /// S1: stack an awakening card from the extra deck on the character; the HP die is re-rolled.
    Awaken {
        /// Who awakens.
        player: Seat,
        /// The awakening card id.
        card: String,
    },
    /// S1: Haste: turn the own supporter face up (+1 to its action; destroyed at the turn end).
    Haste {
        /// Whose supporter.
        player: Seat,
    },
    /// S1: the player is done setting cards.
    EndSet {
        /// Who is done.
        player: Seat,
    },
    /// J0: declare replacement (交代) before the throw.
    DeclareReplacement {
        /// Who declares.
        player: Seat,
    },
    /// J0: both hands as thrown (seat 0's and seat 1's).
    Janken {
        /// Seat 0's hand.
        hand0: Hand,
        /// Seat 1's hand.
        hand1: Hand,
    },
    /// Any time: one of the printed events of the player's gear happened: its die −1.
    GearEvent {
        /// Whose gear.
        player: Seat,
    },
    /// J0 → J1: the janken phase ends (field dice −1, supporters age, replacement).
    EndJanken {},
    /// J1: swap the character that declared replacement with a hand card; the HP carries over.
    Replace {
        /// Who replaces.
        player: Seat,
        /// The new character's card id.
        card: String,
    },
    /// J1: the player declared replacement but keeps the character.
    KeepCharacter {
        /// Who keeps.
        player: Seat,
    },
    /// T0: remove the printed number of Bullet counters to use the effect (enter its result with
    /// `effect`).
    SpendBullet {
        /// Whose character.
        player: Seat,
    },
    /// T0: Necromancy: flip a graveyard card. With `card`, that face-up card goes face down;
    /// without, one of the face-down cards (a die picks which when there are several) goes face up.
    Necromancy {
        /// Whose character's skill.
        player: Seat,
        /// Whose graveyard (seat).
        graveyard: Seat,
        /// The face-up card to turn face down; `None` for a face-down card, picked at random.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        card: Option<String>,
    },
    /// T0 → next turn: the turn ends.
    EndTurn {},
    /// Any time: the result of an effect the players resolved by hand (skill text, field, gear,
    /// Bullet, Clockwise, Dice rolling). Damage is settled before healing.
    Effect {
        /// Whose effect.
        player: Seat,
        /// Damage to the opposing character.
        #[serde(default)]
        damage: i32,
        /// Damage to the player's own character.
        #[serde(default)]
        self_damage: i32,
        /// HP the player's own character gets back.
        #[serde(default)]
        heal: i32,
        /// Cards the player draws.
        #[serde(default)]
        draw: i32,
        /// What the effect did, in the players' words.
        #[serde(default)]
        note: String,
    },
    /// A card in play gives the player's character "+N attack" (e.g. a gear's "+1 attack"): it
    /// counts on the character's ATK actions while the card stays in play and ends with it.
    Bonus {
        /// Whose character.
        player: Seat,
        /// The card giving it, in this player's battle, support or field zone.
        card: String,
        /// The extra attack (−9…9; 0 ends it).
        atk: i32,
    },
    /// Draft variant: surrender (サレンダー) after taking the last side card with no deck and hand.
    Surrender {
        /// Who surrenders.
        player: Seat,
    },
    /// Draft, pack purchase: the player takes a whole pile (numbered from 1) into the holdings.
    Pick {
        /// Who picks.
        player: Seat,
        /// The pile's number on the table, from 1.
        pile: u32,
    },
    /// Draft, before pack purchase 2: the previous battle's winner takes one card of the loser's
    /// holdings (2 in all).
    ExchangeTake {
        /// Card id.
        card: String,
    },
    /// Draft, before pack purchase 2: the winner gives the loser one card of their own holdings
    /// in return (2 in all).
    ExchangeGive {
        /// Card id.
        card: String,
    },
    /// Draft: the exchange is done; pack purchase 2 begins.
    ExchangeDone {},
    /// Draft, deck building: one card of the holdings into the deck (an EX card into the extra
    /// deck).
    DeckAdd {
        /// Whose deck.
        player: Seat,
        /// Card id.
        card: String,
    },
    /// Draft, deck building: one card back out of the deck.
    DeckRemove {
        /// Whose deck.
        player: Seat,
        /// Card id.
        card: String,
    },
    /// Draft, deck building: the whole deck at once (main and extra deck cards together), built.
    BuildDeck {
        /// Whose deck.
        player: Seat,
        /// The deck's cards, one id per copy.
        cards: CardList,
    },
    /// Draft, deck building: the player's deck is built; the battle begins when both are.
    DeckDone {
        /// Whose deck.
        player: Seat,
    },
}

/// One change of a JUNK-KEN state: a player's side or the table replaced by its new value.
///
/// `decide` computes the new state on a scratch copy; its events are the parts that changed, so
/// `apply` only assigns and the match is the fold of its events.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A player's side after the move.
    Player(Seat, Box<PlayerState>),
    /// The table after the move.
    Table(Box<Table>),
}

pub(super) fn other(seat: Seat) -> Seat {
    1 - seat
}

pub(super) fn check_seat(seat: Seat) -> Result<(), Impossible> {
    if seat < 2 {
        Ok(())
    } else {
        Err(
            Impossible::new(format!("JUNK-KEN has seats 0 and 1, not {seat}"))
                .ja(format!("JUNK-拳の席は0と1です（{seat}ではありません）")),
        )
    }
}

/// The seed's sentence of the battle zone (one character, face up).
pub(super) const REF_BATTLE_ZONE: &str =
    "バトルゾーン「手札からカードを1枚だけ表向きで置くことができます。」";
/// The seed's sentence of the support zone (one card, face down).
pub(super) const REF_SUPPORT_ZONE: &str =
    "サポートゾーン「手札からカードを1枚だけ裏向きで置くことができます。」";
/// The house rules' reference: the rulebook says nothing of it.
pub(super) const HOUSE_RULE: &str =
    "House rule: the rulebook does not settle this; the app's default, which the table may change";

pub(super) fn step_text(state: &State) -> String {
    let t = state.table.turn;
    let b = state.table.draft.as_ref().map_or(1, |d| d.battle);
    match state.table.step {
        Step::Exchange => format!("draft, before battle {b}: the winner's exchange"),
        Step::Purchase if b > 1 => format!("draft, before battle {b}: pack purchase 2"),
        Step::Purchase => "draft: pack purchase".to_owned(),
        Step::Build => format!("draft, before battle {b}: deck building (5 minutes)"),
        Step::SetStart => format!("turn {t} S0: set phase begins (Dice-rolling skills roll)"),
        Step::Set => format!("turn {t} S1: set phase"),
        Step::Janken => format!("turn {t} J0: janken phase (replacement, then the throw)"),
        Step::Resolve => format!("turn {t} J0: after the throw (effects by hand)"),
        Step::Replace => format!("turn {t} J1: janken phase end (replacement swap)"),
        Step::TurnEnd => format!("turn {t} T0: turn end (Bullet, Necromancy)"),
        Step::Over => "the end of the match".to_owned(),
    }
}

/// [`step_text`] in Japanese (the window's step line), by the seed's names of the phases
/// (セットフェーズ, じゃんけんフェーズ, ターンの終わり); the digest's step codes (S1, J0 …) are
/// not the rulebook's and stay in the English text.
pub fn step_text_ja(state: &State) -> String {
    let t = state.table.turn;
    let b = state.table.draft.as_ref().map_or(1, |d| d.battle);
    match state.table.step {
        Step::Exchange => format!("ドラフト 対戦{b}の前：勝者の交換"),
        Step::Purchase if b > 1 => format!("ドラフト 対戦{b}の前：パック購入フェーズ2"),
        Step::Purchase => "ドラフト：パック購入フェーズ".to_owned(),
        Step::Build => format!("ドラフト 対戦{b}の前：デッキ構築フェーズ（5分間）"),
        Step::SetStart => format!("ターン{t}：セットフェーズの開始時（ダイスロールスキル）"),
        Step::Set => format!("ターン{t}：セットフェーズ"),
        Step::Janken => format!("ターン{t}：じゃんけんフェーズ（交代の宣言、手を出す）"),
        Step::Resolve => format!("ターン{t}：じゃんけんフェーズ、手を出した後（効果は手動）"),
        Step::Replace => format!("ターン{t}：じゃんけんフェーズ終了時（交代）"),
        Step::TurnEnd => format!("ターン{t}：ターンの終わり（バレット、ネクロマンシー）"),
        Step::Over => "対戦終了".to_owned(),
    }
}

/// A move made at a step it does not belong to (`junk-ken.phase`): what was done and when it
/// belongs, in English and Japanese (`[en, ja]`), and the seed's sentence of that timing (or the
/// house-rule note where the seed gives none).
pub(super) fn wrong_step(
    state: &State,
    what: [&str; 2],
    when: [&str; 2],
    reference: &str,
) -> Violation {
    Violation::wrong_phase(
        "junk-ken.phase",
        reference,
        [what[0], when[0], &step_text(state)],
        [what[1], when[1], &step_text_ja(state)],
    )
}

impl PlayerState {
    /// True when `card` lies in this player's battle, support or field zone.
    pub fn in_play(&self, card: &str) -> bool {
        self.character
            .as_ref()
            .is_some_and(|c| c.stack.iter().any(|s| s == card))
            || match &self.support {
                Support::Supporter { card: c, .. } | Support::Gear { card: c, .. } => c == card,
                Support::Empty => false,
            }
            || self.field.as_ref().is_some_and(|f| f.card == card)
    }

    /// The attack bonus of the character's ATK actions: the one set by hand plus those of the
    /// cards in play.
    pub fn attack_bonus(&self) -> i32 {
        self.atk_bonus + self.bonuses.iter().map(|b| b.atk).sum::<i32>()
    }
}

impl State {
    pub(super) fn name(&self, seat: Seat) -> &str {
        self.players.get(seat).map_or("?", |p| p.name.as_str())
    }

    pub(super) fn card(&self, id: &str) -> Result<&CardInfo, Impossible> {
        self.cards.get(id).ok_or_else(|| {
            Impossible::new(format!("card `{id}` is in neither player's deck")).ja(format!(
                "カード `{id}` はどちらのプレイヤーのデッキにもありません"
            ))
        })
    }

    /// The top card of a seat's character.
    pub fn top(&self, seat: Seat) -> Option<&CardInfo> {
        let ch = self.players.get(seat)?.character.as_ref()?;
        self.cards.get(ch.top())
    }

    pub(super) fn label(&self, id: &str) -> String {
        self.cards
            .get(id)
            .map_or_else(|| id.to_owned(), CardInfo::label)
    }

    /// A card's Japanese name (for a Japanese sentence), or its id.
    pub(super) fn label_ja(&self, id: &str) -> String {
        self.cards
            .get(id)
            .map_or_else(|| id.to_owned(), |c| c.name_ja.clone())
    }

    pub(super) fn in_set(&self) -> bool {
        self.table.step == Step::Set
    }

    pub(super) fn owes_hp(&self, seat: Seat) -> bool {
        self.table
            .dice
            .iter()
            .any(|d| d.seat == seat && d.purpose == DiePurpose::Hp)
    }
}

/// A card's data as the match keeps it; `None` for an id the catalogue does not have.
pub(super) fn card_info(catalogue: &crate::catalogue::Catalogue, id: &str) -> Option<CardInfo> {
    let crate::catalogue::Card {
        name_ja,
        name_en,
        text,
        data: crate::catalogue::CardData::JunkKen(data),
        ..
    } = catalogue.card(id)?
    else {
        return None;
    };
    Some(CardInfo {
        name_ja: name_ja.clone(),
        name_en: name_en.clone(),
        text: text.clone(),
        data: data.clone(),
    })
}

/// A player's side at the start of the battle: the main deck shuffled, 4 cards drawn, the side
/// cards set aside from the rest.
pub(super) fn seat_state(
    name: String,
    main: Vec<String>,
    extra: Vec<String>,
    rules: &Rules,
) -> PlayerState {
    let side = i32::try_from(rules.deck_rules().side_cards).unwrap_or(1);
    let count = i32::try_from(main.len()).unwrap_or(0);
    let hand = START_HAND.min(count);
    let side = side.min(count - hand);
    PlayerState {
        name,
        hand,
        deck: count - hand - side,
        side,
        unplayed: main,
        extra,
        graveyard: Vec::new(),
        removed: Vec::new(),
        character: None,
        support: Support::Empty,
        field: None,
        defeated: 0,
        atk_bonus: 0,
        bonuses: Vec::new(),
        set_done: false,
        replacing: false,
        declared_replacement: false,
        thrown: None,
        destroyed_this_turn: false,
        necromancy_ready: false,
        surrendered: false,
    }
}
