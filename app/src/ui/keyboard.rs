//! Text without a keyboard: the kiosk has none. Every text the table enters (an override
//! reason, a correction reason, a player's name, an effect's note) is entered with
//! [`text_entry`]: a text field for a laptop's keyboard, the one-tap choices the table gives
//! most often, and an on-screen keyboard (Latin letters and digits, hiragana, katakana) that
//! opens under the field (drawn with the embedded font's own characters only). Numbers are entered with [`number_pad`] and dice with the die-face
//! pad of the dice panel.
//!
//! Keys are named for a screen reader (and the window tests) "Key a" / "キー あ"; the keyboard
//! toggle "Keyboard: <field>" / "キーボード: <field>".

use super::i18n::Lang;
use super::widgets::touch_height;
use egui::{Button, RichText, TextEdit, Ui, Vec2};

/// Which keys the on-screen keyboard shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Keys {
    /// a–z, digits and a few signs.
    #[default]
    Latin,
    /// The gojūon in hiragana, with ゛ ゜ and small kana.
    Hiragana,
    /// The same in katakana.
    Katakana,
}

/// What an entry keeps between frames: whether its keyboard is open, and which keys it shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Keyboard {
    /// The on-screen keyboard is shown.
    pub open: bool,
    /// Its keys.
    pub keys: Keys,
    /// Capitals (Latin).
    pub shift: bool,
}

impl Keyboard {
    /// A keyboard opened on the kana keys in Japanese, on the Latin keys in English.
    pub(crate) fn for_lang(lang: Lang, open: bool) -> Keyboard {
        Keyboard {
            open,
            keys: lang.pick(Keys::Latin, Keys::Hiragana),
            shift: false,
        }
    }
}

/// The Latin keys, by row.
const LATIN: [&str; 4] = ["1234567890", "qwertyuiop", "asdfghjkl-", "zxcvbnm,.'"];

/// The hiragana keys: the gojūon read down each column, then the small kana and signs.
const HIRAGANA: [&str; 5] = [
    "あかさたなはまやらわぁっ",
    "いきしちにひみゆりをぃゃ",
    "うくすつぬふむよるんぅゅ",
    "えけせてねへめ、れーぇょ",
    "おこそとのほも。ろ！ぉ？",
];

/// Voiced (゛) and semi-voiced (゜) forms of the hiragana that have them.
const DAKUTEN: [(char, char); 20] = [
    ('か', 'が'),
    ('き', 'ぎ'),
    ('く', 'ぐ'),
    ('け', 'げ'),
    ('こ', 'ご'),
    ('さ', 'ざ'),
    ('し', 'じ'),
    ('す', 'ず'),
    ('せ', 'ぜ'),
    ('そ', 'ぞ'),
    ('た', 'だ'),
    ('ち', 'ぢ'),
    ('つ', 'づ'),
    ('て', 'で'),
    ('と', 'ど'),
    ('は', 'ば'),
    ('ひ', 'び'),
    ('ふ', 'ぶ'),
    ('へ', 'べ'),
    ('ほ', 'ぼ'),
];
const HANDAKUTEN: [(char, char); 5] = [
    ('は', 'ぱ'),
    ('ひ', 'ぴ'),
    ('ふ', 'ぷ'),
    ('へ', 'ぺ'),
    ('ほ', 'ぽ'),
];

/// The katakana of a hiragana (the blocks are 0x60 apart); other characters as they are.
fn katakana(c: char) -> char {
    match c {
        'ぁ'..='ゖ' => char::from_u32(c as u32 + 0x60).unwrap_or(c),
        _ => c,
    }
}

/// The hiragana of a katakana; other characters as they are.
fn hiragana(c: char) -> char {
    match c {
        'ァ'..='ヶ' => char::from_u32(c as u32 - 0x60).unwrap_or(c),
        _ => c,
    }
}

/// Adds ゛ (or ゜ with `semi`) to the last kana of `text`: か → が, は → ぱ; a kana without such
/// a form is left as it is.
pub(crate) fn voice_last(text: &mut String, semi: bool) {
    let Some(last) = text.chars().next_back() else {
        return;
    };
    let kata = hiragana(last) != last;
    let base = hiragana(last);
    let table: &[(char, char)] = if semi { &HANDAKUTEN } else { &DAKUTEN };
    // A voiced kana tapped again goes back to the plain one (が ゛ → か).
    let swapped = table
        .iter()
        .find_map(|(plain, voiced)| match base {
            b if b == *plain => Some(*voiced),
            b if b == *voiced => Some(*plain),
            _ => None,
        })
        .or_else(|| (base == 'う' && !semi).then_some('ゔ'));
    if let Some(new) = swapped {
        text.pop();
        text.push(if kata { katakana(new) } else { new });
    }
}

/// The name of a key for a screen reader: "Key a" / "キー あ".
pub(crate) fn key_name(lang: Lang, key: &str) -> String {
    lang.pick(format!("Key {key}"), format!("キー {key}"))
}

/// A text the table enters: `name` is the field's accessible name (and the caption above it),
/// `choices` the one-tap texts ((English, Japanese): a tap replaces the text). Returns true
/// when the text changed this frame.
pub(crate) fn text_entry(
    ui: &mut Ui,
    lang: Lang,
    name: &str,
    text: &mut String,
    keyboard: &mut Keyboard,
    choices: &[(&str, &str)],
) -> bool {
    let before = text.clone();
    // While typing, the one-tap choices make room for the keys.
    if !choices.is_empty() && !keyboard.open {
        ui.horizontal_wrapped(|ui| {
            for (en, ja) in choices {
                let choice = lang.pick(*en, *ja);
                let chosen = text.trim() == choice;
                let height = touch_height(ui, 40.0);
                let tap = ui
                    .add(
                        Button::new(RichText::new(choice).size(16.0))
                            .selected(chosen)
                            .min_size(Vec2::new(0.0, height)),
                    )
                    .accessible_name(choice);
                if tap.clicked() {
                    *text = choice.to_owned();
                }
            }
        });
    }
    ui.horizontal(|ui| {
        let height = touch_height(ui, 40.0);
        let toggle_name = lang.pick(format!("Keyboard: {name}"), format!("キーボード: {name}"));
        let field_width = (ui.available_width() - 150.0).max(120.0);
        ui.add(
            TextEdit::singleline(text)
                .desired_width(field_width)
                .font(egui::FontId::proportional(20.0)),
        )
        .accessible_name(name);
        let caption = if keyboard.open {
            lang.pick("Close keys", "キーを閉じる")
        } else {
            lang.pick("Keyboard", "キーボード")
        };
        let toggle = ui
            .add(
                Button::new(RichText::new(caption).size(17.0))
                    .selected(keyboard.open)
                    .min_size(Vec2::new(0.0, height)),
            )
            .accessible_name(toggle_name);
        if toggle.clicked() {
            keyboard.open = !keyboard.open;
        }
    });
    if keyboard.open {
        keys(ui, lang, text, keyboard);
    }
    *text != before
}

/// The on-screen keyboard's keys, sized to the width it is given (at least 40 px a key).
pub(crate) fn keys(ui: &mut Ui, lang: Lang, text: &mut String, keyboard: &mut Keyboard) {
    let rows: Vec<Vec<String>> = match keyboard.keys {
        Keys::Latin => LATIN
            .iter()
            .map(|row| {
                row.chars()
                    .map(|c| match keyboard.shift {
                        true => c.to_uppercase().collect(),
                        false => c.to_string(),
                    })
                    .collect()
            })
            .collect(),
        Keys::Hiragana | Keys::Katakana => HIRAGANA
            .iter()
            .map(|row| {
                row.chars()
                    .map(|c| match keyboard.keys {
                        Keys::Katakana => katakana(c).to_string(),
                        _ => c.to_string(),
                    })
                    .collect()
            })
            .collect(),
    };
    let columns = rows.iter().map(Vec::len).max().unwrap_or(10).max(1) as f32;
    let gap = 3.0;
    let key_w = ((ui.available_width() - gap * (columns - 1.0)) / columns).clamp(40.0, 64.0);
    // The kana's extra rows a little lower, so that a dialog with them still fits 800×480.
    let key_h = if rows.len() > 4 { 37.0 } else { 40.0 };
    let size = Vec2::new(key_w, key_h);
    let mut typed: Option<String> = None;
    ui.scope(|ui| {
        ui.spacing_mut().item_spacing = Vec2::splat(gap);
        // The key's height is the key's, not its text's plus the usual padding.
        ui.spacing_mut().button_padding = Vec2::new(4.0, 2.0);
        ui.spacing_mut().interact_size.y = key_h;
        for row in &rows {
            ui.horizontal(|ui| {
                for key in row {
                    let tap = ui
                        .add_sized(size, Button::new(RichText::new(key).size(20.0)))
                        .accessible_name(key_name(lang, key));
                    if tap.clicked() {
                        typed = Some(key.clone());
                    }
                }
            });
        }
        ui.horizontal(|ui| {
            let modes = [
                (Keys::Latin, "ABC"),
                (Keys::Hiragana, "かな"),
                (Keys::Katakana, "カナ"),
            ];
            for (mode, caption) in modes {
                let tap = ui
                    .add_sized(
                        size,
                        Button::new(RichText::new(caption).size(18.0))
                            .selected(keyboard.keys == mode),
                    )
                    .accessible_name(key_name(lang, caption));
                if tap.clicked() {
                    keyboard.keys = mode;
                }
            }
            match keyboard.keys {
                Keys::Latin => {
                    let tap = ui
                        .add_sized(
                            size,
                            Button::new(RichText::new("Aa").size(18.0)).selected(keyboard.shift),
                        )
                        .accessible_name(key_name(lang, lang.pick("shift", "大文字")));
                    if tap.clicked() {
                        keyboard.shift = !keyboard.shift;
                    }
                }
                Keys::Hiragana | Keys::Katakana => {
                    for (mark, semi) in [("゛", false), ("゜", true)] {
                        let tap = ui
                            .add_sized(size, Button::new(RichText::new(mark).size(20.0)))
                            .accessible_name(key_name(lang, mark));
                        if tap.clicked() {
                            voice_last(text, semi);
                        }
                    }
                }
            }
            let space = ui
                .add_sized(
                    Vec2::new(key_w * 2.0 + gap, key_h),
                    Button::new(RichText::new(lang.pick("space", "空白")).size(17.0)),
                )
                .accessible_name(key_name(lang, lang.pick("space", "空白")));
            if space.clicked() {
                typed = Some(" ".to_owned());
            }
            let delete = ui
                .add_sized(
                    Vec2::new(key_w * 1.5, key_h),
                    Button::new(RichText::new(lang.pick("Del", "削除")).size(17.0)),
                )
                .accessible_name(key_name(lang, lang.pick("delete", "削除")));
            if delete.clicked() {
                text.pop();
            }
        });
    });
    if let Some(key) = typed {
        text.push_str(&key);
    }
}

/// A number pad for a whole number: the digits, ± and ⌫. Returns true when the text changed.
pub(crate) fn number_pad(ui: &mut Ui, lang: Lang, text: &mut String) -> bool {
    let before = text.clone();
    let key_h = touch_height(ui, 44.0);
    let size = Vec2::new(56.0, key_h);
    ui.scope(|ui| {
        ui.spacing_mut().item_spacing = Vec2::splat(4.0);
        ui.horizontal_wrapped(|ui| {
            for d in ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0"] {
                if ui
                    .add_sized(size, Button::new(RichText::new(d).size(22.0)))
                    .accessible_name(key_name(lang, d))
                    .clicked()
                {
                    if text.trim() == "0" {
                        text.clear();
                    }
                    text.push_str(d);
                }
            }
            if ui
                .add_sized(size, Button::new(RichText::new("±").size(22.0)))
                .accessible_name(key_name(lang, "±"))
                .clicked()
            {
                match text.strip_prefix('-') {
                    Some(rest) => *text = rest.to_owned(),
                    None => text.insert(0, '-'),
                }
            }
            if ui
                .add_sized(
                    size,
                    Button::new(RichText::new(lang.pick("Del", "削除")).size(17.0)),
                )
                .accessible_name(key_name(lang, lang.pick("delete", "削除")))
                .clicked()
            {
                text.pop();
            }
        });
    });
    *text != before
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn voicing_marks_turn_kana_into_their_voiced_forms_and_back() {
        let mut t = "か".to_owned();
        voice_last(&mut t, false);
        assert_eq!(t, "が");
        voice_last(&mut t, false);
        assert_eq!(t, "か");
        let mut t = "ハ".to_owned();
        voice_last(&mut t, true);
        assert_eq!(t, "パ");
        let mut t = "あ".to_owned();
        voice_last(&mut t, false);
        assert_eq!(t, "あ", "あ has no voiced form");
        let mut t = String::new();
        voice_last(&mut t, true);
        assert_eq!(t, "");
    }

    #[test]
    fn katakana_and_hiragana_are_one_block_apart() {
        assert_eq!(katakana('と'), 'ト');
        assert_eq!(hiragana('ト'), 'と');
        assert_eq!(katakana('ー'), 'ー');
        assert_eq!(katakana('a'), 'a');
    }
}
