//! The HTML Standard's *parse a srcset attribute* (§4.8.4.3.10), reduced to
//! what a crawler needs: the URL of every valid image candidate.
//!
//! Step names in comments are the standard's. A candidate whose descriptors
//! fail the standard's descriptor parser is dropped, as a browser drops it.
//! The standard's *ASCII whitespace* (tab, LF, FF, CR, space) is exactly
//! `u8::is_ascii_whitespace`.
//!
//! Invariant: every returned URL is a non-empty slice of the input.

/// The URLs of the valid image candidates of a `srcset` value, in order.
pub fn srcset_urls(input: &str) -> Vec<&str> {
    let b = input.as_bytes();
    let mut out = Vec::new();
    let mut pos = 0;
    loop {
        // Splitting loop: skip ASCII whitespace and commas.
        while pos < b.len() && (b[pos].is_ascii_whitespace() || b[pos] == b',') {
            pos += 1;
        }
        if pos >= b.len() {
            return out;
        }
        // Collect a sequence of code points that are not ASCII whitespace: url.
        let start = pos;
        while pos < b.len() && !b[pos].is_ascii_whitespace() {
            pos += 1;
        }
        let mut url = &input[start..pos];
        let mut descriptors: Vec<&str> = Vec::new();
        if url.ends_with(',') {
            // Remove all trailing commas; no descriptors.
            url = url.trim_end_matches(',');
        } else {
            // Descriptor tokenizer.
            while pos < b.len() && b[pos].is_ascii_whitespace() {
                pos += 1;
            }
            let mut current_start: Option<usize> = None;
            #[derive(PartialEq)]
            enum St {
                In,
                Parens,
                After,
            }
            let mut st = St::In;
            loop {
                let c = b.get(pos).copied();
                match st {
                    St::In => match c {
                        Some(c) if c.is_ascii_whitespace() => {
                            if let Some(s) = current_start.take() {
                                descriptors.push(&input[s..pos]);
                                st = St::After;
                            }
                        }
                        Some(b',') => {
                            pos += 1;
                            if let Some(s) = current_start.take() {
                                descriptors.push(&input[s..pos - 1]);
                            }
                            break;
                        }
                        Some(b'(') => {
                            current_start.get_or_insert(pos);
                            st = St::Parens;
                        }
                        None => {
                            if let Some(s) = current_start.take() {
                                descriptors.push(&input[s..pos]);
                            }
                            break;
                        }
                        Some(_) => {
                            current_start.get_or_insert(pos);
                        }
                    },
                    St::Parens => match c {
                        Some(b')') => st = St::In,
                        None => {
                            if let Some(s) = current_start.take() {
                                descriptors.push(&input[s..pos]);
                            }
                            break;
                        }
                        Some(_) => {}
                    },
                    St::After => match c {
                        Some(c) if c.is_ascii_whitespace() => {}
                        None => break,
                        Some(_) => {
                            st = St::In;
                            continue; // reconsume
                        }
                    },
                }
                pos += 1;
            }
        }
        if !url.is_empty() && descriptors_valid(&descriptors) {
            out.push(url);
        }
    }
}

/// The descriptor parser's error checks (width, density, future-compat-h).
fn descriptors_valid(descriptors: &[&str]) -> bool {
    let (mut w, mut x, mut h) = (false, false, false);
    for d in descriptors {
        // The descriptor's last character is its type; it may be any
        // character, so the value ends at a character boundary.
        let Some(last) = d.chars().next_back() else {
            continue;
        };
        let value = &d[..d.len() - last.len_utf8()];
        let positive_int = || {
            !value.is_empty()
                && value.bytes().all(|c| c.is_ascii_digit())
                && value.parse::<u64>().map_or(true, |v| v > 0)
        };
        match last {
            'w' => {
                if w || x || !positive_int() {
                    return false;
                }
                w = true;
            }
            'x' => {
                if w || x || h || !valid_float(value) {
                    return false;
                }
                x = true;
            }
            'h' => {
                if h || x || !positive_int() {
                    return false;
                }
                h = true;
            }
            _ => return false,
        }
    }
    // Future-compat-h without w is an error.
    !h || w
}

/// A *valid floating-point number* that is non-negative (density).
fn valid_float(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    if b.first() == Some(&b'-') {
        return false; // negative density
    }
    let digits = |i: &mut usize| {
        let s = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i > s
    };
    let int = digits(&mut i);
    let mut frac = false;
    if i < b.len() && b[i] == b'.' {
        i += 1;
        frac = digits(&mut i);
        if !frac {
            return false;
        }
    }
    if !int && !frac {
        return false;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        if !digits(&mut i) {
            return false;
        }
    }
    i == b.len()
}

#[cfg(test)]
mod tests {
    use super::srcset_urls;

    #[test]
    fn candidates() {
        assert_eq!(srcset_urls("a.png 1x, b.png 2x"), ["a.png", "b.png"]);
        assert_eq!(
            srcset_urls("  a.png, b.png 100w ,c.png"),
            ["a.png", "b.png", "c.png"]
        );
        // A comma without whitespace after it is part of the URL.
        assert_eq!(srcset_urls("a.png,b.png 1x"), ["a.png,b.png"]);
        // Commas inside a URL stay; trailing commas end it (no descriptors:
        // the "2x" after them is a URL of its own).
        assert_eq!(
            srcset_urls("img,1.jpg 1x,img,2.jpg,, 2x"),
            ["img,1.jpg", "img,2.jpg", "2x"]
        );
        assert_eq!(
            srcset_urls("data:image/png;base64,AAA= 1x"),
            ["data:image/png;base64,AAA="]
        );
        // Parentheses protect commas in descriptors; unknown descriptor → dropped.
        assert_eq!(srcset_urls("a.png (x, y), b.png 2x"), ["b.png"]);
        // Invalid descriptors drop the candidate.
        assert_eq!(
            srcset_urls("a.png 0w, b.png 1.5x, c.png 1x 2x, d.png 10h, e.png 10w 10h"),
            ["b.png", "e.png"]
        );
        assert_eq!(srcset_urls(""), Vec::<&str>::new());
        assert_eq!(srcset_urls(" , ,"), Vec::<&str>::new());
        assert_eq!(srcset_urls("a.png 1x,"), ["a.png"]);
        assert_eq!(srcset_urls("a.png 1e1x"), ["a.png"]);
        assert_eq!(srcset_urls("a.png -1x"), Vec::<&str>::new());
        // A descriptor ending in a non-ASCII character is invalid, not a
        // slice inside that character.
        assert_eq!(
            srcset_urls("a.png 2x\u{FFFD}, b.png 1\u{e9}"),
            Vec::<&str>::new()
        );
    }
}
