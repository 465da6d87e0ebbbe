//! A `WARC-Date` to the CDX timestamp of an index line, or the reason it
//! has none.
//!
//! WARC 1.1 §5.4: the date is W3C-DTF (ISO 8601's profile,
//! <https://www.w3.org/TR/NOTE-datetime>) in UTC: `YYYY`, `YYYY-MM`,
//! `YYYY-MM-DD`, `YYYY-MM-DDThh:mmTZD`, `YYYY-MM-DDThh:mm:ssTZD` or
//! `YYYY-MM-DDThh:mm:ss.sTZD`, with `TZD` `Z`, `+hh:mm` or `-hh:mm`. The
//! timestamp is the date's digits as far as it gives them, to the second
//! (`2014-01-03T03:03:21.123Z` → `20140103030321`, as warcio drops the
//! fraction; `2014-01` → `201401`).
//!
//! Every field is checked against the calendar (month 1–12, the month's
//! days, hour 0–23, minute and second 0–59): a date that is not one is an
//! error, never a timestamp — taking the first 14 digits of
//! `2008-10-294T05:21:46-0700` (a known ClueWeb09 quirk) gave
//! `20081029405214`, hour 40, and a replay system answers 500 for such a
//! line. What real writers do that W3C-DTF does not allow but leaves the
//! instant plain is read: a missing `TZD` is UTC (as warcio reads it), an
//! offset without its colon (`-0700`) is an offset; a date with an offset
//! is moved to UTC (`2014-01-03T01:00:00-02:00` → `20140103030000`).

/// Why a date gives no timestamp.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("WARC-Date {date:?} is not a W3C-DTF date: {why}")]
pub struct BadDate {
    /// The date as written.
    pub date: String,
    /// What is wrong.
    pub why: &'static str,
}

/// The CDX timestamp of a `WARC-Date` (see the module documentation).
pub fn cdx_timestamp(date: &str) -> Result<String, BadDate> {
    let bad = |why| BadDate {
        date: date.to_owned(),
        why,
    };
    let s = date.trim().as_bytes();
    let mut p = Parser { s, at: 0 };
    let year = p.digits(4).ok_or_else(|| bad("no four-digit year"))?;
    if p.done() {
        return Ok(format!("{year:04}"));
    }
    p.expect(b'-').ok_or_else(|| bad("no `-` after the year"))?;
    let month = p.digits(2).ok_or_else(|| bad("no two-digit month"))?;
    if !(1..=12).contains(&month) {
        return Err(bad("month out of range"));
    }
    if p.done() {
        return Ok(format!("{year:04}{month:02}"));
    }
    p.expect(b'-')
        .ok_or_else(|| bad("no `-` after the month"))?;
    let day = p.digits(2).ok_or_else(|| bad("no two-digit day"))?;
    if day < 1 || day > crate::calendar::days_in_month(year, month) {
        return Err(bad("day out of range"));
    }
    if p.done() {
        return Ok(format!("{year:04}{month:02}{day:02}"));
    }
    p.expect(b'T').ok_or_else(|| bad("no `T` after the day"))?;
    let hour = p.digits(2).ok_or_else(|| bad("no two-digit hour"))?;
    p.expect(b':').ok_or_else(|| bad("no `:` after the hour"))?;
    let minute = p.digits(2).ok_or_else(|| bad("no two-digit minute"))?;
    let second = if p.expect(b':').is_some() {
        let second = p.digits(2).ok_or_else(|| bad("no two-digit second"))?;
        if p.expect(b'.').is_some() && p.digit_run() == 0 {
            return Err(bad("no digits after the decimal point"));
        }
        Some(second)
    } else {
        None
    };
    if hour > 23 || minute > 59 || second.is_some_and(|s| s > 59) {
        return Err(bad("time out of range"));
    }
    let offset_minutes = p
        .zone()
        .ok_or_else(|| bad("not a time zone (`Z`, `+hh:mm`)"))?;
    if !p.done() {
        return Err(bad("more after the time zone"));
    }
    // Moved to UTC.
    let days = crate::calendar::days_from_civil(year, month, day);
    let minutes = days * 1440 + hour * 60 + minute - offset_minutes;
    let (y, m, d) = crate::calendar::civil_from_days(minutes.div_euclid(1440));
    let (h, min) = (minutes.rem_euclid(1440) / 60, minutes.rem_euclid(60));
    if !(0..=9999).contains(&y) {
        return Err(bad("year out of range once in UTC"));
    }
    Ok(match second {
        Some(sec) => format!("{y:04}{m:02}{d:02}{h:02}{min:02}{sec:02}"),
        None => format!("{y:04}{m:02}{d:02}{h:02}{min:02}"),
    })
}

/// A cursor over the date's bytes.
struct Parser<'a> {
    s: &'a [u8],
    at: usize,
}

impl Parser<'_> {
    fn done(&self) -> bool {
        self.at == self.s.len()
    }

    fn expect(&mut self, b: u8) -> Option<()> {
        (self.s.get(self.at) == Some(&b)).then(|| self.at += 1)
    }

    /// Exactly `n` digits (and not a digit after them), as a number.
    fn digits(&mut self, n: usize) -> Option<i64> {
        let run = self.s[self.at..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        if run != n {
            return None;
        }
        self.leading_digits(n)
    }

    /// The next `n` bytes as a number, if they are digits (whatever
    /// follows).
    fn leading_digits(&mut self, n: usize) -> Option<i64> {
        let digits = self.s.get(self.at..self.at + n)?;
        if !digits.iter().all(u8::is_ascii_digit) {
            return None;
        }
        let v = digits.iter().fold(0, |v, &b| v * 10 + i64::from(b - b'0'));
        self.at += n;
        Some(v)
    }

    /// Skips a run of digits; its length.
    fn digit_run(&mut self) -> usize {
        let run = self.s[self.at..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        self.at += run;
        run
    }

    /// The zone's offset east of UTC in minutes: `Z`, `+hh:mm`, `+hhmm`,
    /// or nothing (UTC).
    fn zone(&mut self) -> Option<i64> {
        let sign = match self.s.get(self.at) {
            None => return Some(0),
            Some(b'Z') => {
                self.at += 1;
                return Some(0);
            }
            Some(b'+') => 1,
            Some(b'-') => -1,
            Some(_) => return None,
        };
        self.at += 1;
        let h = self.leading_digits(2)?;
        let _ = self.expect(b':');
        let m = self.digits(2)?;
        (h <= 23 && m <= 59).then_some(sign * (h * 60 + m))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn w3c_dtf_dates_give_their_digits() {
        for (date, ts) in [
            ("2014-01-03T03:03:21Z", "20140103030321"),
            ("2014-01-03T03:03:21.123456Z", "20140103030321"),
            ("2014-01-03T03:03Z", "201401030303"),
            ("2014-01-03", "20140103"),
            ("2014-01", "201401"),
            ("2014", "2014"),
            (" 2014-01-03T03:03:21Z ", "20140103030321"),
            // What writers do beyond the standard, read plainly.
            ("2014-01-03T03:03:21", "20140103030321"),
            ("2014-01-03T01:03:21-02:00", "20140103030321"),
            ("2014-01-03T05:03:21+0200", "20140103030321"),
            // An offset that crosses midnight, a month and a leap day.
            ("2016-03-01T01:00:00+02:00", "20160229230000"),
            ("2015-12-31T23:30:00-01:00", "20160101003000"),
            ("2016-02-29T12:00:00Z", "20160229120000"),
        ] {
            assert_eq!(cdx_timestamp(date).as_deref(), Ok(ts), "{date}");
        }
    }

    #[test]
    fn what_is_not_a_date_is_an_error_never_a_timestamp() {
        for (date, why) in [
            ("2008-10-294T05:21:46-0700", "no two-digit day"),
            ("2014-13-01T00:00:00Z", "month out of range"),
            ("2014-02-29T00:00:00Z", "day out of range"),
            ("2014-04-31", "day out of range"),
            ("2014-01-00", "day out of range"),
            ("2014-01-03T24:00:00Z", "time out of range"),
            ("2014-01-03T23:60:00Z", "time out of range"),
            ("2014-01-03T23:59:60Z", "time out of range"),
            ("2014-01-03T03:03:21.Z", "no digits after the decimal point"),
            ("2014-01-03T03:03:21 Z", "not a time zone (`Z`, `+hh:mm`)"),
            (
                "2014-01-03T03:03:21+25:00",
                "not a time zone (`Z`, `+hh:mm`)",
            ),
            ("2014-01-03T03:03:21Zjunk", "more after the time zone"),
            ("20140103030321", "no four-digit year"),
            ("soon", "no four-digit year"),
            ("", "no four-digit year"),
            ("2014-1-3", "no two-digit month"),
            ("2014-01-03 03:03:21", "no `T` after the day"),
            ("2014-01-03T03", "no `:` after the hour"),
            ("0000-01-01T00:00:00+01:00", "year out of range once in UTC"),
        ] {
            let e = cdx_timestamp(date).unwrap_err();
            assert_eq!(e.why, why, "{date}");
            assert!(e.to_string().contains(&format!("{date:?}")), "{e}");
        }
    }
}
