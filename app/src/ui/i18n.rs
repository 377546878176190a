//! The window's words in English and Japanese: one table, switchable at runtime.
//!
//! [`Lang::t`] gives the fixed strings of a language ([`Strings`], one field per string, so a
//! missing translation does not compile); the `Lang` methods build the strings that hold names
//! or numbers. Card names come from the catalogue in the chosen language (`name_ja`/`name_en`).
//! Sentences written by the rules core (rule refusals, log lines, prompts) stay as the core
//! writes them.

/// The language of the window.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Lang {
    /// English (the default).
    #[default]
    En,
    /// Japanese (日本語).
    Ja,
}

/// Environment variable: `ja` opens the window in Japanese (`en`, or unset, in English).
pub const LANG_ENV: &str = "TABLESIDE_LANG";

impl Lang {
    /// The language named by [`LANG_ENV`], English when unset or unknown.
    pub fn from_env() -> Lang {
        match std::env::var(LANG_ENV).as_deref() {
            Ok(v) if v.starts_with("ja") => Lang::Ja,
            _ => Lang::En,
        }
    }

    /// The other language.
    pub fn toggled(self) -> Lang {
        match self {
            Lang::En => Lang::Ja,
            Lang::Ja => Lang::En,
        }
    }

    /// The code `Card::name` takes (`en`, `ja`).
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Ja => "ja",
        }
    }

    /// The fixed strings of this language.
    pub fn t(self) -> &'static Strings {
        match self {
            Lang::En => &EN,
            Lang::Ja => &JA,
        }
    }

    /// Picks the English or the Japanese text.
    pub fn pick<T>(self, en: T, ja: T) -> T {
        match self {
            Lang::En => en,
            Lang::Ja => ja,
        }
    }

    /// "Resume match #3".
    pub fn resume_match(self, id: impl std::fmt::Display) -> String {
        self.pick(format!("Resume match #{id}"), format!("対戦 #{id} を再開"))
    }

    /// "Player 2".
    pub fn player_n(self, n: usize) -> String {
        self.pick(format!("Player {n}"), format!("プレイヤー {n}"))
    }

    /// "Player 2 name".
    pub fn player_name(self, n: usize) -> String {
        self.pick(format!("Player {n} name"), format!("プレイヤー {n} の名前"))
    }

    /// "Player 2 deck: gale".
    pub fn player_deck(self, n: usize, deck: &str) -> String {
        self.pick(
            format!("Player {n} deck: {deck}"),
            format!("プレイヤー {n} のデッキ: {deck}"),
        )
    }

    /// "23 entries".
    pub fn entries(self, n: u64) -> String {
        self.pick(format!("{n} entries"), format!("{n} 件"))
    }

    /// "Battle 3 / 10" (`of` is " / 10" or empty).
    pub fn battle(self, n: u32, of: &str) -> String {
        self.pick(format!("Battle {n}{of}"), format!("第{n}バトル{of}"))
    }

    /// "Aki wins".
    pub fn wins(self, name: &str) -> String {
        self.pick(format!("{name} wins"), format!("{name} の勝ち"))
    }

    /// "Aki's " (English possessive, to put before a number's label), "Akiの " in Japanese.
    pub fn whose(self, name: &str) -> String {
        self.pick(format!("{name}'s "), format!("{name}の "))
    }

    /// "Correct Aki's SB 魂玉".
    pub fn correct(self, what: &str) -> String {
        self.pick(format!("Correct {what}"), format!("{what} を訂正"))
    }

    /// "Edit Aki's SB 魂玉" (the accessible name of a "± edit" button).
    pub fn edit(self, what: &str) -> String {
        self.pick(format!("Edit {what}"), format!("{what} を訂正"))
    }

    /// "Now 9; allowed 0 to 20. The correction is logged."
    pub fn adjust_range(self, now: i32, min: i32, max: i32) -> String {
        self.pick(
            format!("Now {now}; allowed {min} to {max}. The correction is logged."),
            format!("現在 {now}(範囲 {min}〜{max})。訂正は記録されます。"),
        )
    }

    /// Where a refused rule is written, in the rulebook's own words: "rule jaken.summon-cost ·
    /// rulebook: 召喚コスト" / "ルールブック: 召喚コスト" (see [`rulebook_words`]; the rule's id
    /// is shown in English only).
    pub fn rule_ref(self, rule: &str, reference: &str) -> String {
        let words = rulebook_words(reference);
        match (self, words) {
            (Lang::En, Some(w)) => format!("rule {rule} · rulebook: {w}"),
            (Lang::En, None) => format!("rule {rule} · a house rule (not in the rulebook)"),
            (Lang::Ja, Some(w)) => format!("ルールブック: {w}"),
            (Lang::Ja, None) => "ハウスルール(ルールブックに記載なし)".to_owned(),
        }
    }

    /// "   OVERRIDE of: sentence (rulebook: words)", a log line's overridden rule.
    pub fn override_of(self, rule: &str, sentence: &str, reference: &str) -> String {
        let words = rulebook_words(reference);
        match (self, words) {
            (Lang::En, Some(w)) => format!("   OVERRIDE of [{rule}] {sentence} (rulebook: {w})"),
            (Lang::En, None) => format!("   OVERRIDE of [{rule}] {sentence} (a house rule)"),
            (Lang::Ja, Some(w)) => format!("   ルール無視: {sentence}(ルールブック: {w})"),
            (Lang::Ja, None) => format!("   ルール無視: {sentence}(ハウスルール)"),
        }
    }

    /// "Match #3 · Aki vs Ben".
    pub fn match_title(self, id: impl std::fmt::Display, players: &str) -> String {
        self.pick(
            format!("Match #{id} · {players}"),
            format!("対戦 #{id} · {players}"),
        )
    }

    /// "Match log: /path".
    pub fn match_log(self, path: &str) -> String {
        self.pick(format!("Match log: {path}"), format!("対戦記録: {path}"))
    }

    /// "File: … Tableside did not change this file …".
    pub fn store_file(self, path: &str) -> String {
        self.pick(
            format!(
                "File: {path}\nTableside did not change this file. Move it aside (or start Tableside \
                 with another --data-dir) and try again."
            ),
            format!(
                "ファイル: {path}\nTableside はこのファイルを変更していません。別の場所に移す(または別の \
                 --data-dir で起動する)と、もう一度試せます。"
            ),
        )
    }

    /// "Step 4 / 31".
    pub fn step_of(self, n: usize, total: usize) -> String {
        self.pick(
            format!("Step {n} / {total}"),
            format!("ステップ {n} / {total}"),
        )
    }

    /// "Written to /path".
    pub fn written(self, path: &str) -> String {
        self.pick(
            format!("Written to {path}"),
            format!("{path} に書き出しました"),
        )
    }

    /// "[Space] Start" in kiosk mode: the key shown on a button.
    pub fn with_key(self, key: &str, text: &str) -> String {
        format!("[{key}] {text}")
    }
}

/// The rulebook's own words in a rule reference as the rules core writes it
/// (`jaken.md §5; seed ❷ 召喚コスト`): the seed's section names (`召喚コスト`), without the
/// digest, file names, section signs or the seed's numbering. `None` when the rule is not in
/// the rulebook (`outside the seed: Y3`, or only a digest reference): a house rule.
pub fn rulebook_words(reference: &str) -> Option<String> {
    let mut words: Vec<String> = Vec::new();
    for part in reference.split(';') {
        let mut part = part.trim();
        // `(beginner game; outside the seed: Y7)` splits inside the parentheses.
        if part.matches(')').count() > part.matches('(').count() {
            part = part.strip_suffix(')').unwrap_or(part).trim();
        }
        // A house rule, or a digest's gap, is not in the rulebook; a house rule's own words
        // go on to the end ("House rule: …; the app's default, …").
        if part.starts_with("House rule") {
            break;
        }
        if part.contains("outside the seed") {
            continue;
        }
        // "seed ❷ 召喚コスト" (older references) or the rulebook's words as they are.
        let rest = part.strip_prefix("seed").unwrap_or(part);
        let mut rest = rest.trim_start_matches(':').trim();
        // The seed's own numbering (`004`, `❷`, `⑨`) is not a section name.
        if let Some((first, tail)) = rest.split_once(' ') {
            let numbering = first.chars().all(|c| {
                c.is_ascii_digit() || ('①'..='⑳').contains(&c) || ('❶'..='❿').contains(&c)
            });
            if numbering && !tail.trim().is_empty() {
                rest = tail.trim();
            }
        }
        if !rest.is_empty() && !rest.contains(".md") && !rest.contains('§') {
            words.push(rest.to_owned());
        }
    }
    (!words.is_empty()).then(|| words.join(" · "))
}

/// Every fixed string of the window, in one language.
#[derive(Debug)]
pub struct Strings {
    /// Button: switch to the other language (written in that language).
    pub other_language: &'static str,
    /// Under the app's name on the start screen.
    pub tagline: &'static str,
    /// Kiosk "Quit".
    pub quit: &'static str,
    /// Start: the most recent unfinished match.
    pub unfinished_waiting: &'static str,
    /// Start: the other unfinished matches.
    pub other_unfinished: &'static str,
    /// Start: heading of a new match, and the result's "New match".
    pub new_match: &'static str,
    /// Start: the catalogue cannot be loaded.
    pub catalogue_broken: &'static str,
    /// Start: "Game".
    pub game: &'static str,
    /// Start: "Players".
    pub players: &'static str,
    /// Start: Jaken is played by two.
    pub two_players: &'static str,
    /// Start: "Cards".
    pub cards: &'static str,
    /// Start: name field hint.
    pub name_hint: &'static str,
    /// Start: "Deck".
    pub deck: &'static str,
    /// Start: the demo set's decks.
    pub demo_decks: &'static str,
    /// Start: registered decks of the store.
    pub registered_decks: &'static str,
    /// Start: no registered deck for this game.
    pub no_registered_decks: &'static str,
    /// Start: house rules heading.
    pub house_rules: &'static str,
    /// Start: settlement caption.
    pub settle: &'static str,
    /// Start: net settlement.
    pub settle_net: &'static str,
    /// Start: parent-first settlement.
    pub settle_parent_first: &'static str,
    /// House rule.
    pub draw_in_battle_1: &'static str,
    /// House rule.
    pub clamp_negative: &'static str,
    /// House rule.
    pub bg_multiple: &'static str,
    /// House rule.
    pub bg_stays: &'static str,
    /// Start: "Start".
    pub start: &'static str,
    /// Start: a name is missing.
    pub need_names: &'static str,
    /// Start: the names are the same.
    pub need_different_names: &'static str,
    /// Start: the devices section.
    pub devices: &'static str,
    /// Start and table: "Dice tower".
    pub dice_tower: &'static str,
    /// Start: no tower was asked for.
    pub no_tower: &'static str,
    /// "Camera".
    pub camera: &'static str,
    /// No camera in this build.
    pub camera_none: &'static str,
    /// Start: the history button.
    pub history: &'static str,
    /// Start: a match could not start.
    pub could_not_start: &'static str,
    /// Start: a match could not be resumed.
    pub could_not_resume: &'static str,
    /// Start: the unfinished matches cannot be listed.
    pub cannot_list: &'static str,
    /// Start: a header that cannot be read.
    pub players_unreadable: &'static str,
    /// Store error title.
    pub store_error: &'static str,
    /// "Try again".
    pub try_again: &'static str,
    /// Table: leave.
    pub leave_table: &'static str,
    /// Table: the match stays saved.
    pub stays_saved: &'static str,
    /// Table: "Now:".
    pub now: &'static str,
    /// Table: "Next:".
    pub next: &'static str,
    /// Table: the log heading.
    pub log: &'static str,
    /// Table: show the log (compact layout).
    pub show_log: &'static str,
    /// Table: hide the log (compact layout).
    pub hide_log: &'static str,
    /// Table: undo the last entry.
    pub undo_last: &'static str,
    /// Table: empty log.
    pub nothing_yet: &'static str,
    /// Table: an undone entry.
    pub undone: &'static str,
    /// Table: the open prompts.
    pub waiting_for: &'static str,
    /// Result: heading.
    pub match_over: &'static str,
    /// Result: draw.
    pub draw: &'static str,
    /// "Undo".
    pub undo: &'static str,
    /// Table: the active player.
    pub to_act: &'static str,
    /// Table: the first player of a game without its own panel.
    pub first_player: &'static str,
    /// Table: numbers not shown elsewhere.
    pub other_numbers: &'static str,
    /// Refusal title.
    pub refused: &'static str,
    /// Refusal: why override.
    pub override_why: &'static str,
    /// Refusal: the reason field.
    pub override_reason: &'static str,
    /// Refusal: apply.
    pub apply_override: &'static str,
    /// "Back".
    pub back: &'static str,
    /// Refusal: undo at the table.
    pub undo_at_table: &'static str,
    /// Refusal: override.
    pub override_: &'static str,
    /// Correction: new value.
    pub new_value: &'static str,
    /// Correction: reason.
    pub correction_reason: &'static str,
    /// Correction: not a number.
    pub whole_number: &'static str,
    /// Correction: save.
    pub save_correction: &'static str,
    /// "Cancel".
    pub cancel: &'static str,
    /// Notice: an input that cannot be built.
    pub cannot_enter: &'static str,
    /// Notice: impossible.
    pub not_possible: &'static str,
    /// "OK".
    pub ok: &'static str,
    /// The "± edit" control.
    pub edit: &'static str,
    /// Dice panel heading.
    pub dice: &'static str,
    /// Dice: retry logging.
    pub retry: &'static str,
    /// Dice: hide hand entry.
    pub hide_hand_entry: &'static str,
    /// Dice: show hand entry.
    pub by_hand: &'static str,
    /// Dice: enter typed dice.
    pub enter: &'static str,
    /// Dice: virtual dice.
    pub virtual_dice: &'static str,
    /// Jaken: parent marker.
    pub parent: &'static str,
    /// Jaken: child marker.
    pub child: &'static str,
    /// Jaken: "Trash".
    pub trash: &'static str,
    /// Jaken: "Hand".
    pub hand: &'static str,
    /// Jaken: "Deck" (count).
    pub deck_count: &'static str,
    /// Jaken: the battle field.
    pub battle_field: &'static str,
    /// Jaken: an empty zone.
    pub empty: &'static str,
    /// Jaken: face-down monster.
    pub face_down_monster: &'static str,
    /// Jaken: no monster.
    pub no_monster: &'static str,
    /// Jaken: BG zone.
    pub bg_zone: &'static str,
    /// Jaken: BG face up.
    pub face_up: &'static str,
    /// Jaken: BG used up.
    pub face_down_used: &'static str,
    /// Jaken: BG uses are for the strategy phase.
    pub bg_strategy_only: &'static str,
    /// Jaken: effect form caption.
    pub enter_effect: &'static str,
    /// Jaken: "Own ATK".
    pub own_atk: &'static str,
    /// Jaken: "Own DEF".
    pub own_def: &'static str,
    /// Jaken: "Opponent ATK".
    pub opp_atk: &'static str,
    /// Jaken: "Opponent DEF".
    pub opp_def: &'static str,
    /// Jaken: "SB taken".
    pub sb_taken: &'static str,
    /// Jaken: note hint.
    pub note_hint: &'static str,
    /// Jaken: "Uses".
    pub uses: &'static str,
    /// Jaken: "uses left".
    pub uses_left: &'static str,
    /// History: heading.
    pub history_title: &'static str,
    /// History: nothing stored.
    pub no_matches: &'static str,
    /// History: per game.
    pub by_game: &'static str,
    /// History: per deck.
    pub by_deck: &'static str,
    /// History: per player.
    pub by_player: &'static str,
    /// History: the stored matches.
    pub stored_matches: &'static str,
    /// History: "played".
    pub played: &'static str,
    /// History: "won".
    pub won: &'static str,
    /// History: "draws".
    pub draws: &'static str,
    /// History: "win rate".
    pub win_rate: &'static str,
    /// History: unfinished.
    pub unfinished: &'static str,
    /// History: replay a match.
    pub replay: &'static str,
    /// History: step back.
    pub step_back: &'static str,
    /// History: step forward.
    pub step_forward: &'static str,
    /// History: to the start.
    pub first_step: &'static str,
    /// History: to the end.
    pub last_step: &'static str,
    /// History: the state before any entry.
    pub before_first: &'static str,
    /// History: numbers at this step.
    pub numbers_here: &'static str,
    /// History: export JSON.
    pub export_json: &'static str,
    /// History: export CSV.
    pub export_csv: &'static str,
    /// History: back to the start screen.
    pub back_to_start: &'static str,
    /// Kiosk: key help.
    pub keys_help: &'static str,
}

/// English.
pub static EN: Strings = Strings {
    other_language: "日本語",
    tagline: "the numbers beside your card table",
    quit: "Quit",
    unfinished_waiting: "An unfinished match is waiting",
    other_unfinished: "Other unfinished matches",
    new_match: "New match",
    catalogue_broken: "The card catalogue cannot be loaded, so no match can start:",
    game: "Game",
    players: "Players",
    two_players: "2 players",
    cards: "Cards",
    name_hint: "name",
    deck: "Deck",
    demo_decks: "Ready-made decks of the demo set",
    registered_decks: "Registered decks",
    no_registered_decks: "No deck of this game is registered (tableside deck register).",
    house_rules: "House rules",
    settle: "Settle the two strikes:",
    settle_net: "as one net transfer",
    settle_parent_first: "parent's strike first, stop at 0",
    draw_in_battle_1: "Both players draw in battle 1 too",
    clamp_negative: "ATK and DEF below 0 count as 0",
    bg_multiple: "A BG may be used several times in one battle",
    bg_stays: "A BG stays in its zone until its uses run out",
    start: "Start",
    need_names: "Enter a name for both players.",
    need_different_names: "The two players need different names.",
    devices: "Devices",
    dice_tower: "Dice tower",
    no_tower: "none asked for: dice are typed or virtual (start with --tower to use one)",
    camera: "Camera",
    camera_none: "none: card recognition is not built into this version; cards are entered by tapping",
    history: "History",
    could_not_start: "The match could not start:",
    could_not_resume: "The match could not be resumed:",
    cannot_list: "The unfinished matches cannot be listed:",
    players_unreadable: "(players unreadable)",
    store_error: "The match log cannot be opened",
    try_again: "Try again",
    leave_table: "Leave table",
    stays_saved: "(the match stays saved)",
    now: "Now:",
    next: "Next:",
    log: "Log",
    show_log: "Log & dice",
    hide_log: "Back to the table",
    undo_last: "Undo last",
    nothing_yet: "Nothing yet.",
    undone: "   (undone)",
    waiting_for: "Waiting for",
    match_over: "The match is over",
    draw: "Draw",
    undo: "Undo",
    to_act: "to act",
    first_player: "first player",
    other_numbers: "Other numbers",
    refused: "Refused: this move breaks a rule",
    override_why: "Why do the players override the rule? The reason is logged.",
    override_reason: "Override reason",
    apply_override: "Apply with override",
    back: "Back",
    undo_at_table: "Undo at the table",
    override_: "Override…",
    new_value: "New value",
    correction_reason: "Reason for the correction",
    whole_number: "Enter a whole number.",
    save_correction: "Save correction",
    cancel: "Cancel",
    cannot_enter: "That cannot be entered",
    not_possible: "Not possible",
    ok: "OK",
    edit: "± edit",
    dice: "Dice",
    retry: "Retry",
    hide_hand_entry: "Hide hand entry",
    by_hand: "By hand…",
    enter: "Enter",
    virtual_dice: "Virtual",
    parent: "親 Parent · OB",
    child: "子 Child",
    trash: "Trash",
    hand: "Hand 手札",
    deck_count: "Deck デッキ",
    battle_field: "Battle field",
    empty: "empty",
    face_down_monster: "a monster, face down",
    no_monster: "no monster: ATK 0 / DEF 0",
    bg_zone: "BG zone",
    face_up: "face up",
    face_down_used: "face down (used up)",
    bg_strategy_only: "BG uses belong to P3 … B4 (the strategy phase).",
    enter_effect: "Enter what the effect does:",
    own_atk: "Own ATK",
    own_def: "Own DEF",
    opp_atk: "Opponent ATK",
    opp_def: "Opponent DEF",
    sb_taken: "SB taken",
    note_hint: "note (optional)",
    uses: "Uses",
    uses_left: "uses left",
    history_title: "History",
    no_matches: "No match is stored yet.",
    by_game: "By game",
    by_deck: "By deck",
    by_player: "By player",
    stored_matches: "Stored matches",
    played: "played",
    won: "won",
    draws: "draws",
    win_rate: "win rate",
    unfinished: "unfinished",
    replay: "Replay",
    step_back: "« Step back",
    step_forward: "Step forward »",
    first_step: "|« Start",
    last_step: "End »|",
    before_first: "before the first entry",
    numbers_here: "The numbers at this step",
    export_json: "Export JSON",
    export_csv: "Export CSV",
    back_to_start: "Back",
    keys_help: "Keys: Space/Enter next move · 1–9 moves · U undo · R roll d6 · Y/N confirm · L language",
};

/// Japanese.
pub static JA: Strings = Strings {
    other_language: "English",
    tagline: "カードゲームの卓のそばで数を数える",
    quit: "終了",
    unfinished_waiting: "途中の対戦があります",
    other_unfinished: "ほかの途中の対戦",
    new_match: "新しい対戦",
    catalogue_broken: "カード目録を読めないため、対戦を始められません:",
    game: "ゲーム",
    players: "人数",
    two_players: "2人",
    cards: "カード",
    name_hint: "名前",
    deck: "デッキ",
    demo_decks: "デモセットの既製デッキ",
    registered_decks: "登録済みデッキ",
    no_registered_decks: "このゲームの登録済みデッキはありません(tableside deck register)。",
    house_rules: "ハウスルール",
    settle: "2つの攻撃の精算:",
    settle_net: "差し引きで一度に",
    settle_parent_first: "親の攻撃を先に、0で止める",
    draw_in_battle_1: "第1バトルでも両者がドローする",
    clamp_negative: "0未満の攻撃力・守備力は0とする",
    bg_multiple: "1バトルにBGを何度でも使える",
    bg_stays: "BGは使用回数が尽きるまでゾーンに残る",
    start: "開始",
    need_names: "2人とも名前を入れてください。",
    need_different_names: "2人の名前は別にしてください。",
    devices: "機器",
    dice_tower: "ダイスタワー",
    no_tower: "なし: ダイスは入力か仮想ダイス(--tower で接続)",
    camera: "カメラ",
    camera_none: "なし: この版にはカード認識がありません。カードはタップで入力します",
    history: "履歴",
    could_not_start: "対戦を始められませんでした:",
    could_not_resume: "対戦を再開できませんでした:",
    cannot_list: "途中の対戦を一覧できません:",
    players_unreadable: "(プレイヤー不明)",
    store_error: "対戦記録を開けません",
    try_again: "もう一度",
    leave_table: "卓を離れる",
    stays_saved: "(対戦は保存されます)",
    now: "いま:",
    next: "次:",
    log: "記録",
    show_log: "記録とダイス",
    hide_log: "卓に戻る",
    undo_last: "最後を取り消す",
    nothing_yet: "まだありません。",
    undone: "   (取り消し済み)",
    waiting_for: "待っているもの",
    match_over: "対戦終了",
    draw: "引き分け",
    undo: "取り消す",
    to_act: "の番",
    first_player: "先手",
    other_numbers: "ほかの数",
    refused: "拒否: この手はルールに反します",
    override_why: "なぜルールを無視しますか?理由は記録されます。",
    override_reason: "ルール無視の理由",
    apply_override: "ルールを無視して適用",
    back: "戻る",
    undo_at_table: "卓で戻す",
    override_: "ルール無視…",
    new_value: "新しい値",
    correction_reason: "訂正の理由",
    whole_number: "整数を入れてください。",
    save_correction: "訂正を保存",
    cancel: "やめる",
    cannot_enter: "入力できません",
    not_possible: "できません",
    ok: "OK",
    edit: "± 訂正",
    dice: "ダイス",
    retry: "再試行",
    hide_hand_entry: "手入力を隠す",
    by_hand: "手入力…",
    enter: "入力",
    virtual_dice: "仮想",
    parent: "親 · OB",
    child: "子",
    trash: "トラッシュ",
    hand: "手札",
    deck_count: "デッキ",
    battle_field: "バトル場",
    empty: "空",
    face_down_monster: "裏向きのモンスター",
    no_monster: "モンスターなし: 攻撃力0 / 守備力0",
    bg_zone: "BGゾーン",
    face_up: "表向き",
    face_down_used: "裏向き(使用済み)",
    bg_strategy_only: "BGを使えるのはP3〜B4(戦略フェーズ)です。",
    enter_effect: "効果の結果を入力:",
    own_atk: "自分の攻撃力",
    own_def: "自分の守備力",
    opp_atk: "相手の攻撃力",
    opp_def: "相手の守備力",
    sb_taken: "奪うSB",
    note_hint: "メモ(任意)",
    uses: "回数",
    uses_left: "残り回数",
    history_title: "履歴",
    no_matches: "保存された対戦はまだありません。",
    by_game: "ゲーム別",
    by_deck: "デッキ別",
    by_player: "プレイヤー別",
    stored_matches: "保存された対戦",
    played: "対戦",
    won: "勝ち",
    draws: "引き分け",
    win_rate: "勝率",
    unfinished: "途中",
    replay: "再生",
    step_back: "« 1つ戻る",
    step_forward: "1つ進む »",
    first_step: "|« 最初",
    last_step: "最後 »|",
    before_first: "最初の記録の前",
    numbers_here: "このステップの数",
    export_json: "JSONで書き出す",
    export_csv: "CSVで書き出す",
    back_to_start: "戻る",
    keys_help: "キー: スペース/Enter 次の手 · 1–9 手 · U 取り消し · R d6 · Y/N 確認 · L 言語",
};

/// The dice tower's words (the dice panel and the start screen's tower line): the link's
/// state, how long it has been, faults and lost dice in words, late dice and what to do with
/// them. Player-facing, so in both languages; the link's own error texts are not shown.
impl Lang {
    /// "0.4 s", "18 s", "2 min 10 s", "3 h 5 min".
    pub fn duration(self, d: std::time::Duration) -> String {
        let s = d.as_secs();
        let tenths = d.as_millis() / 100;
        let (en, ja) = if d < std::time::Duration::from_secs(1) {
            let t = format!("0.{}", tenths % 10);
            (format!("{t} s"), format!("{t} 秒"))
        } else if s < 120 {
            (format!("{s} s"), format!("{s} 秒"))
        } else if s < 7200 {
            (
                format!("{} min {} s", s / 60, s % 60),
                format!("{} 分 {} 秒", s / 60, s % 60),
            )
        } else {
            (
                format!("{} h {} min", s / 3600, s / 60 % 60),
                format!("{} 時間 {} 分", s / 3600, s / 60 % 60),
            )
        };
        self.pick(en, ja)
    }

    /// How long something has been away, in whole minutes ("under a minute", "3 min",
    /// "2 h 5 min"): it changes once a minute, so a window showing it redraws once a minute.
    pub fn away(self, d: std::time::Duration) -> String {
        let m = d.as_secs() / 60;
        let (en, ja) = if m == 0 {
            ("under a minute".to_owned(), "1 分未満".to_owned())
        } else if m < 120 {
            (format!("{m} min"), format!("{m} 分"))
        } else {
            (
                format!("{} h {} min", m / 60, m % 60),
                format!("{} 時間 {} 分", m / 60, m % 60),
            )
        };
        self.pick(en, ja)
    }

    /// No tower asked for.
    pub fn tower_none(self) -> String {
        self.pick("No dice tower", "ダイスタワーなし").to_owned()
    }

    /// What to do without a tower.
    pub fn tower_none_hint(self) -> String {
        self.pick(
            "Type the dice or roll virtual ones.",
            "ダイスを入力するか、仮想ダイスを振ってください。",
        )
        .to_owned()
    }

    /// The link could not start at all.
    pub fn tower_start_failed(self) -> String {
        self.pick(
            "The tower link could not start",
            "ダイスタワーとの接続を開始できませんでした",
        )
        .to_owned()
    }

    /// A line-mode tower was asked to be found by scanning.
    pub fn tower_line_needs_path(self) -> String {
        self.pick(
            "A printing (line-mode) tower cannot be found by scanning: give its port, e.g. --tower /dev/ttyUSB0 --line",
            "行出力(ライン方式)のタワーは自動で探せません。ポートを指定してください(例: --tower /dev/ttyUSB0 --line)",
        )
        .to_owned()
    }

    /// "Connected to tower 7ab1…" or to a printing tower.
    pub fn tower_connected(self, id: Option<&str>) -> String {
        match id {
            Some(id) => self.pick(
                format!("Connected to tower {id}"),
                format!("ダイスタワー {id} に接続中"),
            ),
            None => self
                .pick(
                    "Connected to a printing tower (line mode)",
                    "行出力タワーに接続中(ライン方式)",
                )
                .to_owned(),
        }
    }

    /// "port /dev/ttyACM0".
    pub fn tower_port(self, port: &str) -> String {
        self.pick(format!("port {port}"), format!("ポート {port}"))
    }

    /// "last heartbeat 0.4 s ago · 12 roll(s) received".
    pub fn tower_heartbeat(self, ago: Option<std::time::Duration>, rolls: u64) -> String {
        match ago {
            Some(d) => self.pick(
                format!(
                    "last heartbeat {} ago · {rolls} roll(s) received",
                    self.duration(d)
                ),
                format!("最後の応答 {}前 · 受信 {rolls} 個", self.duration(d)),
            ),
            None => self.pick(
                format!("{rolls} roll(s) received"),
                format!("受信 {rolls} 個"),
            ),
        }
    }

    /// The link was stopped.
    pub fn tower_stopped(self) -> String {
        self.pick(
            "The tower link is stopped",
            "ダイスタワーとの接続を止めました",
        )
        .to_owned()
    }

    /// A port is open but nothing answered yet.
    pub fn tower_handshaking(self, port: &str) -> String {
        self.pick(
            format!("Port {port} open, waiting for the tower to answer"),
            format!("ポート {port} を開きました。タワーの応答を待っています"),
        )
    }

    /// "Tower not found · looking for 12 s".
    pub fn tower_not_found(self, since: Option<std::time::Duration>) -> String {
        match since {
            Some(d) => self.pick(
                format!("Tower not found · looking for {}", self.away(d)),
                format!("ダイスタワーが見つかりません · 探して {}", self.away(d)),
            ),
            None => self
                .pick("Tower not found", "ダイスタワーが見つかりません")
                .to_owned(),
        }
    }

    /// "Tower unplugged for 3 min: waiting for it".
    pub fn tower_unplugged(self, since: Option<std::time::Duration>) -> String {
        let d = self.away(since.unwrap_or_default());
        self.pick(
            format!("Tower unplugged for {d}: waiting for it"),
            format!("ダイスタワーが外れて {d}: 戻るのを待っています"),
        )
    }

    /// The port answers, but not like a tower.
    pub fn tower_not_a_tower(self) -> String {
        self.pick(
            "The port does not answer like a tower",
            "このポートはダイスタワーとして応答しません",
        )
        .to_owned()
    }

    /// "Tower connection lost 18 s ago: reconnecting".
    pub fn tower_connection_lost(self, since: Option<std::time::Duration>) -> String {
        let d = self.away(since.unwrap_or_default());
        self.pick(
            format!("Tower connection lost {d} ago: reconnecting"),
            format!("ダイスタワーとの接続が {d}前に切れました: 再接続中"),
        )
    }

    /// Looking for a tower by handshake.
    pub fn tower_looking(self) -> String {
        self.pick("Looking for the tower", "ダイスタワーを探しています")
            .to_owned()
    }

    /// Opening a given port.
    pub fn tower_opening(self, port: &str) -> String {
        self.pick(
            format!("Opening the tower at {port}"),
            format!("{port} のダイスタワーを開いています"),
        )
    }

    /// Why the port failed, in words, and when the link tries again.
    pub fn tower_failure(
        self,
        e: &hardware::dice::link::LinkError,
        retry: Option<std::time::Duration>,
    ) -> String {
        use hardware::dice::link::LinkError as E;
        let why = match e {
            E::Open { path, reason } => self.pick(
                format!("cannot open {}: {reason}", path.display()),
                format!("{} を開けません: {reason}", path.display()),
            ),
            E::NotFound { tried } => self.pick(
                format!("no tower answered among {tried} port(s)"),
                format!("{tried} 個のポートのどれもタワーとして応答しません"),
            ),
            E::Io(reason) => self.pick(
                format!("the port failed: {reason}"),
                format!("ポートの読み書きに失敗: {reason}"),
            ),
            E::Closed => self
                .pick("the port was closed", "ポートが閉じられました")
                .to_owned(),
            E::NoHandshake { pings } => self.pick(
                format!("no answer to {pings} hello(s)"),
                format!("{pings} 回の呼びかけに応答なし"),
            ),
            E::Silent(d) => self.pick(
                format!("the tower was silent for {}", self.duration(*d)),
                format!("タワーから {} 応答がありません", self.duration(*d)),
            ),
            E::NoRuntime | E::Thread(_) => self
                .pick("the link could not run", "接続処理を実行できません")
                .to_owned(),
            E::TextNeedsPath => self.tower_line_needs_path(),
        };
        match retry {
            Some(d) => self.pick(
                format!("{why}; trying again every {}", self.duration(d)),
                format!("{why}。{}ごとに再試行", self.duration(d)),
            ),
            None => self.pick(
                format!("{why}; trying again now"),
                format!("{why}。再試行中"),
            ),
        }
    }

    /// "3 damaged frame(s) ignored".
    pub fn tower_damaged(self, n: u64) -> String {
        self.pick(
            format!("{n} damaged frame(s) ignored"),
            format!("壊れたデータ {n} 件を無視しました"),
        )
    }

    /// "2 repeated roll(s) dropped".
    pub fn tower_repeats(self, n: u64) -> String {
        self.pick(
            format!("{n} repeated roll(s) dropped"),
            format!("重複したロール {n} 個を除きました"),
        )
    }

    /// "reconnected 2 time(s)".
    pub fn tower_reconnects(self, n: u64) -> String {
        self.pick(format!("reconnected {n} time(s)"), format!("再接続 {n} 回"))
    }

    /// "the tower restarted 1 time(s)".
    pub fn tower_restarts(self, n: u64) -> String {
        self.pick(
            format!("the tower restarted {n} time(s)"),
            format!("タワーの再起動 {n} 回"),
        )
    }

    /// "5 roll(s) lost in all" (and unknown losses).
    pub fn tower_lost_total(self, n: u64, unknown: u64) -> String {
        match unknown {
            0 => self.pick(
                format!("{n} roll(s) lost in all: they were thrown again or are missing"),
                format!("失われたロール 計 {n} 個"),
            ),
            u => self.pick(
                format!("{n} roll(s) lost in all, and {u} time(s) an unknown number"),
                format!("失われたロール 計 {n} 個、数の分からない消失 {u} 回"),
            ),
        }
    }

    /// Tower rolls that came with no match open.
    pub fn tower_unlogged(self, n: u64) -> String {
        self.pick(
            format!("{n} tower roll(s) arrived with no match open and were not logged"),
            format!("対戦が開いていない間に届いたタワーのロール {n} 個は記録していません"),
        )
    }

    /// A fault the tower reported, in words (`None` for the faults the loss messages cover).
    pub fn tower_fault(self, fault: &hardware::dice::message::Fault) -> Option<String> {
        use hardware::dice::message::FaultCode as C;
        let d = fault.detail;
        Some(match fault.code {
            C::SensorFailure => self.pick(
                format!("The tower could not read a die (die {d}): throw it again"),
                format!("タワーがダイス({d} 番)を読めませんでした。振り直してください"),
            ),
            C::CockedDie => self.pick(
                format!("A die landed on its edge or could not be read (die {d}): throw it again"),
                format!("ダイス({d} 番)が傾いて止まったか、読めませんでした。振り直してください"),
            ),
            C::HostFrameCorrupt => self.pick(
                format!("The tower received a damaged message from the app ({d} so far); the link sends it again"),
                format!("タワーがアプリからの壊れたメッセージを受け取りました(計 {d} 回)。自動で送り直します"),
            ),
            C::HistoryOverflow | C::ResendUnavailable => return None,
            C::Other(code) => self.pick(
                format!("The tower reported fault {code} (detail {d})"),
                format!("タワーがエラー {code} を報告しました(詳細 {d})"),
            ),
        })
    }

    /// Why a printing tower's line was refused.
    pub fn line_refused_reason(self, e: &hardware::dice::text::LineError) -> String {
        use hardware::dice::text::LineError as L;
        match e {
            L::CheckMismatch { .. } | L::DamagedKeyword => self
                .pick(
                    "damaged on the way: its check does not match",
                    "途中で壊れていました(チェックが一致しません)",
                )
                .to_owned(),
            L::ValueOutOfRange { sides, value } => self.pick(
                format!("{value} is not a face of a d{sides}"),
                format!("{value} は d{sides} の目ではありません"),
            ),
            L::TooLong => self
                .pick("the line is too long", "行が長すぎます")
                .to_owned(),
            _ => self
                .pick(
                    "it is not a roll line the app can read",
                    "アプリが読めるロールの行ではありません",
                )
                .to_owned(),
        }
    }

    /// Dice the tower link knows are lost, in words, with what to do.
    pub fn tower_loss(self, loss: &hardware::dice::link::LossReport) -> String {
        use hardware::dice::link::{LossCause as C, Lost};
        let seqs = match loss.lost {
            Lost::Seqs { first, last } if first == last => {
                self.pick(format!("roll #{first}"), format!("ロール #{first}"))
            }
            Lost::Seqs { first, last } => self.pick(
                format!("rolls #{first} to #{last}"),
                format!("ロール #{first}〜#{last}"),
            ),
            Lost::Unknown { after } => self.pick(
                format!("an unknown number of rolls after #{after}"),
                format!("ロール #{after} より後の数の分からないロール"),
            ),
        };
        let lines = match loss.lost {
            Lost::Seqs { first, last } if first == last => {
                self.pick(format!("line #{first}"), format!("行 #{first}"))
            }
            Lost::Seqs { first, last } => self.pick(
                format!("lines #{first} to #{last}"),
                format!("行 #{first}〜#{last}"),
            ),
            Lost::Unknown { .. } => self.pick("a line".to_owned(), "1 行".to_owned()),
        };
        match loss.cause {
            C::Reset if matches!(loss.lost, Lost::Unknown { .. }) => {
                let after = match loss.lost {
                    Lost::Unknown { after } => after,
                    Lost::Seqs { last, .. } => last,
                };
                self.pick(
                    format!("The tower restarted and cannot say what it lost after roll #{after}: throw again any die that did not show"),
                    format!("タワーが再起動しました。ロール #{after} より後に失われたものは分かりません。表示されなかったダイスは振り直してください"),
                )
            }
            C::Reset => self.pick(
                format!("The tower restarted and lost {seqs}: throw those dice again"),
                format!("タワーが再起動し、{seqs}が失われました。そのダイスを振り直してください"),
            ),
            C::HistoryOverflow => self.pick(
                format!("The tower's memory filled up while the link was down: {seqs} lost, throw those dice again"),
                format!("接続が切れている間にタワーの記憶がいっぱいになり、{seqs}が失われました。振り直してください"),
            ),
            C::ResendUnavailable => self.pick(
                format!("The tower no longer had {seqs}: throw those dice again"),
                format!("タワーに{seqs}が残っていませんでした。振り直してください"),
            ),
            C::LineGap => self.pick(
                format!("{lines} from the tower never arrived: throw those dice again"),
                format!("タワーからの{lines}が届きませんでした。そのダイスを振り直してください"),
            ),
            C::Line(e) => self.pick(
                format!("A line from the tower was refused ({}): throw that die again", self.line_refused_reason(&e)),
                format!("タワーからの行を受け付けませんでした({})。そのダイスを振り直してください", self.line_refused_reason(&e)),
            ),
            C::UncheckedLine => self.pick(
                "A line came without its check from a tower that checks its lines: refused, throw that die again".to_owned(),
                "チェックのない行が届いたため受け付けませんでした。そのダイスを振り直してください".to_owned(),
            ),
        }
    }

    /// "d6 = 4, thrown 18 s ago while the tower was unplugged".
    pub fn late_roll(self, die: &str, ago: std::time::Duration, offline: bool) -> String {
        let d = self.duration(ago);
        match offline {
            true => self.pick(
                format!("Late roll: {die}, thrown {d} ago while the tower was unplugged"),
                format!("遅れて届いたロール: {die}({d}前、タワーが外れている間に投げたもの)"),
            ),
            false => self.pick(
                format!("Late roll: {die}, thrown {d} ago (it reached the app late)"),
                format!("遅れて届いたロール: {die}({d}前に投げたもの)"),
            ),
        }
    }

    /// What happens to a late die until the table taps.
    pub fn late_roll_waits(self) -> String {
        self.pick(
            "It does not answer the request on its own: choose.",
            "このロールは自動では使われません。選んでください。",
        )
        .to_owned()
    }

    /// A late die that answered no request was logged as a free roll.
    pub fn late_logged_free(self, what: &str) -> String {
        self.pick(
            format!("{what}: logged as a free roll"),
            format!("{what}: フリーロールとして記録しました"),
        )
    }

    /// "Use it for: …".
    pub fn late_use_for(self, prompt: &str) -> String {
        self.pick(
            format!("Use it for: {prompt}"),
            format!("これに使う: {prompt}"),
        )
    }

    /// "2 tower roll(s) not logged yet: …".
    pub fn tower_not_logged_yet(self, n: usize, why: Option<&str>) -> String {
        match why {
            Some(why) => self.pick(
                format!("{n} tower roll(s) not logged yet: {why}"),
                format!("タワーのロール {n} 個がまだ記録されていません: {why}"),
            ),
            None => self.pick(
                format!("{n} tower roll(s) not logged yet: the match log did not take them"),
                format!(
                    "タワーのロール {n} 個がまだ記録されていません(対戦記録に書けませんでした)"
                ),
            ),
        }
    }

    /// Keep a late die as a free roll.
    pub fn late_keep_free(self) -> String {
        self.pick("Keep as a free roll", "フリーロールとして記録")
            .to_owned()
    }

    /// Beside the compact layout's "Log & dice" button: the dice panel needs the table
    /// (`late` late dice wait for a tap; otherwise dice were lost or the tower reported a
    /// fault).
    pub fn dice_attention(self, late: usize) -> String {
        match late {
            0 => self
                .pick(
                    "Dice: see the tower's message",
                    "ダイス: タワーの知らせを確認",
                )
                .to_owned(),
            1 => self
                .pick("1 late die waits for you", "遅れたダイス 1 個: 選択待ち")
                .to_owned(),
            n => self.pick(
                format!("{n} late dice wait for you"),
                format!("遅れたダイス {n} 個: 選択待ち"),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_references_keep_the_rulebooks_words_only() {
        assert_eq!(
            rulebook_words("jaken.md §5; seed ❷ 召喚コスト").as_deref(),
            Some("召喚コスト")
        );
        assert_eq!(
            rulebook_words("yomi.md §3 5-1/5-4/5-5, §10.10; seed 004 5-1, 5-4, 5-5").as_deref(),
            Some("5-1, 5-4, 5-5")
        );
        assert_eq!(
            rulebook_words("space-junk.md §5 (* boosts); seed Special Symbols (Note)").as_deref(),
            Some("Special Symbols (Note)")
        );
        assert_eq!(rulebook_words("yomi.md §5; outside the seed: Y3"), None);
        assert_eq!(
            rulebook_words("yomi.md §8 (beginner game; outside the seed: Y7)"),
            None
        );
        assert_eq!(rulebook_words("docs/catalogue-yomi.md"), None);
        assert_eq!(
            rulebook_words(
                "House rule: the rulebook does not settle this; the app's default, which the table may change"
            ),
            None
        );
        assert_eq!(
            rulebook_words("❷ 召喚コスト").as_deref(),
            Some("召喚コスト")
        );
        assert_eq!(
            rulebook_words("Ramming (Note)").as_deref(),
            Some("Ramming (Note)")
        );
        assert_eq!(
            rulebook_words("House rule: a BG is used at most once per battle."),
            None
        );
        for lang in [Lang::En, Lang::Ja] {
            let shown = lang.rule_ref("jaken.summon-cost", "jaken.md §5; seed ❷ 召喚コスト");
            assert!(shown.contains("召喚コスト"), "{shown}");
            assert!(!shown.contains(".md") && !shown.contains("seed") && !shown.contains('❷'));
        }
    }

    #[test]
    fn toggling_twice_gives_the_language_back() {
        assert_eq!(Lang::En.toggled(), Lang::Ja);
        assert_eq!(Lang::En.toggled().toggled(), Lang::En);
        assert_eq!(Lang::Ja.code(), "ja");
    }

    #[test]
    fn every_string_is_translated() {
        // Same field in both tables, different text (except the few that are the same word).
        let en = format!("{EN:?}");
        let ja = format!("{JA:?}");
        let fields = |s: &str| s.matches(": \"").count();
        assert_eq!(fields(&en), fields(&ja));
        assert!(ja.contains("開始") && en.contains("Start"));
    }
}
