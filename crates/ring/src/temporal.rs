//! String forms of `timestamp`, `date` and `time`, parsed as Cassandra's
//! `TimestampSerializer`, `SimpleDateSerializer` and `TimeSerializer` do.
//!
//! Timestamps go through commons-lang `DateUtils.parseDateStrictly` with a fixed list of
//! patterns on a non-lenient `GregorianCalendar`, which brings three quirks this module
//! keeps:
//! - dates before 1582-10-15 are Julian-calendar dates (and 1582-10-05..14 do not exist);
//! - the `SSS` field is a plain number of milliseconds: `.5` is 5 ms, not 500 ms, and
//!   more than three digits only parse while the value is below 1000;
//! - a string without a zone is read in the server's default time zone. This module
//!   assumes UTC (the usual server setting) for those;
//! - number fields skip leading whitespace and take any number of digits (`2024-1-2 3:4`).
//!
//! Zones are `Z`, `±hh`, `±hhmm`, `±hh:mm`, or after a space `±hhmm`, `GMT±h:mm`, `UTC`,
//! `GMT`. Java would also take its own zone display names (`PST`, `CET`); those are
//! refused here rather than guessed.
//!
//! Dates use `java.time` (`ISO_LOCAL_DATE`, strict, proleptic Gregorian).

/// Why a temporal string was rejected; the caller adds type and text.
pub(crate) type Reason = &'static str;

const MILLIS_PER_DAY: i64 = 86_400_000;
const NANOS_PER_DAY: i64 = 86_400_000_000_000;

/// `TimestampSerializer.dateStringToTimestamp` for everything except `now`: milliseconds
/// since the epoch.
pub(crate) fn parse_timestamp(text: &str) -> Result<i64, Reason> {
    if is_signed_integer(text) {
        return text.parse::<i64>().map_err(|_| "out of range for a long");
    }
    let mut cursor = Cursor::new(text);
    let year = cursor.number().ok_or("expected a year")?;
    cursor.expect(b'-').ok_or("expected '-' after the year")?;
    let month = cursor.number().ok_or("expected a month")?;
    cursor.expect(b'-').ok_or("expected '-' after the month")?;
    let day = cursor.number().ok_or("expected a day")?;

    let mut time_of_day_ms: i64 = 0;
    // The date-only patterns take the zone right after the day; the others need
    // ' ' or 'T' and at least hours and minutes.
    let time_follows_space = cursor.peek_is(b' ')
        && cursor
            .rest()
            .bytes()
            .skip(1)
            .find(|&b| !is_java_ascii_whitespace(b))
            .is_some_and(|b| b.is_ascii_digit());
    if cursor.peek_is(b'T') || time_follows_space {
        cursor.advance(1);
        let hour = cursor.number().ok_or("expected an hour")?;
        cursor.expect(b':').ok_or("expected ':' after the hour")?;
        let minute = cursor.number().ok_or("expected minutes")?;
        let mut second = 0;
        let mut millis = 0;
        if cursor.peek_is(b':') {
            cursor.advance(1);
            second = cursor.number().ok_or("expected seconds")?;
            if cursor.peek_is(b'.') {
                cursor.advance(1);
                millis = cursor.number().ok_or("expected milliseconds")?;
            }
        }
        check_range(hour, 0, 23, "hour out of range")?;
        check_range(minute, 0, 59, "minute out of range")?;
        check_range(second, 0, 59, "second out of range")?;
        check_range(
            millis,
            0,
            999,
            "millisecond field out of range (it counts milliseconds, not a fraction)",
        )?;
        time_of_day_ms = hour * 3_600_000 + minute * 60_000 + second * 1000 + millis;
    }
    let offset_ms = parse_zone(&mut cursor)?;
    if !cursor.at_end() {
        return Err("unexpected trailing characters");
    }

    let days = gregorian_calendar_days(year, month, day)?;
    let millis = i128::from(days) * i128::from(MILLIS_PER_DAY) + i128::from(time_of_day_ms)
        - i128::from(offset_ms);
    i64::try_from(millis).map_err(|_| "out of range for a timestamp")
}

/// Zone suffixes of the accepted patterns: none (taken as UTC), the ISO forms `X`/`XX`/`XXX`
/// directly after the time (`Z`, `+hh`, `+hhmm`, `+hh:mm`), or a space and a general zone
/// `z` (`+hhmm`, `GMT+h:mm`, `UTC`, `GMT`).
fn parse_zone(cursor: &mut Cursor<'_>) -> Result<i64, Reason> {
    if cursor.at_end() {
        return Ok(0);
    }
    if cursor.peek_is(b'Z') {
        cursor.advance(1);
        return Ok(0);
    }
    if cursor.peek_is(b'+') || cursor.peek_is(b'-') {
        return iso_offset(cursor);
    }
    if !cursor.peek_is(b' ') {
        return Err("unexpected characters after the time");
    }
    cursor.advance(1);
    let rest = cursor.rest();
    if rest.starts_with(['+', '-']) {
        // RFC 822 form only: four digits.
        let sign = if rest.starts_with('-') { -1 } else { 1 };
        let digits = &rest[1..];
        if digits.len() != 4 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err("a zone after a space must be +hhmm, GMT+h:mm, UTC or GMT");
        }
        let hours: i64 = digits[..2].parse().map_err(|_| "bad zone")?;
        let minutes: i64 = digits[2..].parse().map_err(|_| "bad zone")?;
        cursor.advance(rest.len());
        return zone_offset(sign, hours, minutes);
    }
    let upper = rest.to_ascii_uppercase();
    if upper == "UTC" || upper == "GMT" {
        cursor.advance(rest.len());
        return Ok(0);
    }
    if let Some(offset) = upper.strip_prefix("GMT") {
        let sign = match offset.as_bytes().first() {
            Some(b'+') => 1,
            Some(b'-') => -1,
            _ => return Err("time zone names other than UTC and GMT are not supported"),
        };
        let (h, m) = offset[1..].split_once(':').ok_or("expected GMT+h:mm")?;
        let valid = |s: &str, max_len: usize| {
            !s.is_empty() && s.len() <= max_len && s.bytes().all(|b| b.is_ascii_digit())
        };
        if !valid(h, 2) || m.len() != 2 || !valid(m, 2) {
            return Err("expected GMT+h:mm");
        }
        let hours: i64 = h.parse().map_err(|_| "bad zone")?;
        let minutes: i64 = m.parse().map_err(|_| "bad zone")?;
        cursor.advance(rest.len());
        return zone_offset(sign, hours, minutes);
    }
    Err("time zone names other than UTC and GMT are not supported")
}

fn iso_offset(cursor: &mut Cursor<'_>) -> Result<i64, Reason> {
    let rest = cursor.rest();
    let sign = if rest.starts_with('-') { -1 } else { 1 };
    let body = &rest[1..];
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let (hours, minutes) = match body.len() {
        2 if digits(body) => (&body[..2], "0"),
        4 if digits(body) => (&body[..2], &body[2..]),
        5 if body.as_bytes().get(2) == Some(&b':') && digits(&body[..2]) && digits(&body[3..]) => {
            (&body[..2], &body[3..])
        }
        _ => return Err("expected a zone offset +hh, +hhmm or +hh:mm"),
    };
    let hours: i64 = hours.parse().map_err(|_| "bad zone")?;
    let minutes: i64 = minutes.parse().map_err(|_| "bad zone")?;
    cursor.advance(rest.len());
    zone_offset(sign, hours, minutes)
}

fn zone_offset(sign: i64, hours: i64, minutes: i64) -> Result<i64, Reason> {
    check_range(hours, 0, 23, "zone hours out of range")?;
    check_range(minutes, 0, 59, "zone minutes out of range")?;
    Ok(sign * (hours * 3_600_000 + minutes * 60_000))
}

/// Days since 1970-01-01 for a date as `java.util.GregorianCalendar` (non-lenient, default
/// cutover) reads it: Gregorian from 1582-10-15 on, Julian before 1582-10-05.
fn gregorian_calendar_days(year: i64, month: i64, day: i64) -> Result<i64, Reason> {
    check_range(year, 1, 292_278_994, "year out of range")?;
    check_range(month, 1, 12, "month out of range")?;
    let date = (year, month, day);
    if date >= (1582, 10, 15) {
        check_range(
            day,
            1,
            days_in_month(year, month, true),
            "day out of range for the month",
        )?;
        Ok(days_from_civil(year, month, day, true))
    } else if date <= (1582, 10, 4) {
        check_range(
            day,
            1,
            days_in_month(year, month, false),
            "day out of range for the month",
        )?;
        Ok(days_from_civil(year, month, day, false))
    } else {
        Err("1582-10-05 to 1582-10-14 do not exist in Java's calendar")
    }
}

fn days_in_month(year: i64, month: i64, gregorian: bool) -> i64 {
    let leap = if gregorian {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    } else {
        year % 4 == 0
    };
    match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 via the Julian day number (valid for year >= -4800).
fn days_from_civil(year: i64, month: i64, day: i64, gregorian: bool) -> i64 {
    let a = (14 - month) / 12;
    let y = year + 4800 - a;
    let m = month + 12 * a - 3;
    let base = day + (153 * m + 2) / 5 + 365 * y + y.div_euclid(4);
    let jdn = if gregorian {
        base - y.div_euclid(100) + y.div_euclid(400) - 32045
    } else {
        base - 32083
    };
    jdn - 2_440_588
}

/// Days since 1970-01-01 in the proleptic Gregorian calendar, for any year.
fn proleptic_days(year: i64, month: i64, day: i64) -> i64 {
    // Shift by whole 400-year cycles (146097 days) so the JDN formula stays in range.
    let cycles = if year < -4000 {
        (-4000 - year) / 400 + 1
    } else {
        0
    };
    days_from_civil(year + cycles * 400, month, day, true) - cycles * 146_097
}

/// `SimpleDateSerializer.dateStringToDays`: the unsigned day number with the epoch at 2^31.
pub(crate) fn parse_date(text: &str) -> Result<u32, Reason> {
    if is_signed_integer(text) {
        // A raw value is the stored unsigned number itself, not days since the epoch.
        let raw: i64 = text
            .parse()
            .map_err(|_| "out of range for an unsigned int")?;
        return u32::try_from(raw).map_err(|_| "raw date value must be in 0..=4294967295");
    }
    let (year, month, day) = parse_iso_local_date(text)?;
    check_range(month, 1, 12, "month out of range")?;
    check_range(
        day,
        1,
        days_in_month(year, month, true),
        "day out of range for the month",
    )?;
    let days = proleptic_days(year, month, day);
    if days < i64::from(i32::MIN) || days > i64::from(i32::MAX) {
        return Err("date out of the supported range");
    }
    Ok((days - i64::from(i32::MIN)) as u32)
}

/// `DateTimeFormatter.ISO_LOCAL_DATE` (strict): the year has 4 digits, or a sign and more
/// (`+` is required past 9999 and refused before); month and day have exactly 2 digits.
fn parse_iso_local_date(text: &str) -> Result<(i64, i64, i64), Reason> {
    let bytes = text.as_bytes();
    let (sign, start) = match bytes.first() {
        Some(b'+') => (1, 1),
        Some(b'-') => (-1, 1),
        _ => (1, 0),
    };
    let year_len = bytes[start..]
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .count();
    let has_plus = bytes.first() == Some(&b'+');
    if !(4..=10).contains(&year_len)
        || (has_plus && year_len <= 4)
        || (!has_plus && sign == 1 && year_len > 4)
    {
        return Err("expected yyyy-mm-dd");
    }
    let after_year = start + year_len;
    let rest = &text[after_year..];
    let rb = rest.as_bytes();
    if rb.len() != 6
        || rb[0] != b'-'
        || rb[3] != b'-'
        || ![1, 2, 4, 5].iter().all(|&i| rb[i].is_ascii_digit())
    {
        return Err("expected yyyy-mm-dd");
    }
    let year: i64 = text[start..after_year].parse().map_err(|_| "bad year")?;
    let month: i64 = rest[1..3].parse().map_err(|_| "bad month")?;
    let day: i64 = rest[4..6].parse().map_err(|_| "bad day")?;
    Ok((sign * year, month, day))
}

/// `TimeSerializer.timeStringToLong`: nanoseconds since midnight.
pub(crate) fn parse_time(text: &str) -> Result<i64, Reason> {
    if is_signed_integer(text) {
        let raw: i64 = text.parse().map_err(|_| "out of range for a long")?;
        if !(0..NANOS_PER_DAY).contains(&raw) {
            return Err("raw time value must be in 0..86400000000000");
        }
        return Ok(raw);
    }
    const FORMAT: Reason = "time must be hh:mm:ss[.fffffffff]";
    let s = text.trim_matches(|c: char| c <= ' ');
    let first_colon = s.find(':').ok_or(FORMAT)?;
    let second_colon = s[first_colon + 1..]
        .find(':')
        .map(|i| i + first_colon + 1)
        .ok_or(FORMAT)?;
    if first_colon == 0 || second_colon >= s.len() - 1 {
        return Err(FORMAT);
    }
    let hour = java_parse_int(&s[..first_colon]).ok_or(FORMAT)?;
    check_range(hour, 0, 23, "hour out of bounds")?;
    let minute = java_parse_int(&s[first_colon + 1..second_colon]).ok_or(FORMAT)?;
    check_range(minute, 0, 59, "minute out of bounds")?;
    let after_seconds = &s[second_colon + 1..];
    let (second, nanos) = match after_seconds.find('.') {
        Some(dot) if dot > 0 && dot < after_seconds.len() - 1 => {
            let second = java_parse_int(&after_seconds[..dot]).ok_or(FORMAT)?;
            let fraction = &after_seconds[dot + 1..];
            if fraction.len() > 9 || !fraction.as_bytes()[0].is_ascii_digit() {
                return Err(FORMAT);
            }
            let padded = format!("{fraction:0<9}");
            (second, java_parse_int(&padded).ok_or(FORMAT)?)
        }
        Some(_) => return Err(FORMAT),
        None => (java_parse_int(after_seconds).ok_or(FORMAT)?, 0),
    };
    check_range(second, 0, 59, "second out of bounds")?;
    Ok(hour * 3_600_000_000_000 + minute * 60_000_000_000 + second * 1_000_000_000 + nanos)
}

/// `Integer.parseInt`: optional sign, decimal digits, must fit an `int`.
fn java_parse_int(s: &str) -> Option<i64> {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse::<i32>().ok().map(i64::from)
}

/// The `^-?\d+$` pattern all three serializers test first.
fn is_signed_integer(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// `Character.isWhitespace` restricted to ASCII.
fn is_java_ascii_whitespace(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | 0x0b | 0x0c | b'\r' | 0x1c..=0x1f | b' ')
}

fn check_range(value: i64, min: i64, max: i64, reason: Reason) -> Result<(), Reason> {
    if (min..=max).contains(&value) {
        Ok(())
    } else {
        Err(reason)
    }
}

/// A byte cursor over ASCII-structured text.
struct Cursor<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Cursor<'a> {
    fn new(text: &'a str) -> Self {
        Self { text, pos: 0 }
    }

    fn rest(&self) -> &'a str {
        self.text.get(self.pos..).unwrap_or("")
    }

    fn at_end(&self) -> bool {
        self.pos >= self.text.len()
    }

    fn peek_is(&self, byte: u8) -> bool {
        self.text.as_bytes().get(self.pos) == Some(&byte)
    }

    fn peek_at_is(&self, offset: usize, pred: impl Fn(u8) -> bool) -> bool {
        self.text
            .as_bytes()
            .get(self.pos + offset)
            .is_some_and(|&b| pred(b))
    }

    fn advance(&mut self, n: usize) {
        self.pos += n;
    }

    fn expect(&mut self, byte: u8) -> Option<()> {
        if self.peek_is(byte) {
            self.pos += 1;
            Some(())
        } else {
            None
        }
    }

    /// One or more decimal digits (the parser's number fields are greedy), after any
    /// whitespace: commons-lang's number fields skip leading whitespace.
    fn number(&mut self) -> Option<i64> {
        while self.peek_at_is(0, is_java_ascii_whitespace) {
            self.pos += 1;
        }
        let digits = self
            .rest()
            .bytes()
            .take_while(|b| b.is_ascii_digit())
            .count();
        if digits == 0 || digits > 12 {
            return None;
        }
        let value = self.rest()[..digits].parse().ok()?;
        self.pos += digits;
        Some(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const JAN_2_2024: i64 = 1_704_153_600_000; // 2024-01-02T00:00:00Z

    #[test]
    fn timestamp_formats() {
        let t = JAN_2_2024 + 3 * 3_600_000 + 4 * 60_000 + 5_000;
        assert_eq!(parse_timestamp("2024-01-02 03:04:05+0000"), Ok(t));
        assert_eq!(parse_timestamp("2024-01-02T03:04:05.678Z"), Ok(t + 678));
        assert_eq!(parse_timestamp("2024-01-02"), Ok(JAN_2_2024));
        assert_eq!(parse_timestamp("2024-01-02 03:04"), Ok(t - 5_000));
        assert_eq!(
            parse_timestamp("2024-01-02 03:04:05+01:00"),
            Ok(t - 3_600_000)
        );
        assert_eq!(parse_timestamp("2024-01-02 03:04:05-02"), Ok(t + 7_200_000));
        assert_eq!(
            parse_timestamp("2024-01-02 03:04:05 +0100"),
            Ok(t - 3_600_000)
        );
        assert_eq!(parse_timestamp("2024-01-02 03:04:05 UTC"), Ok(t));
        assert_eq!(
            parse_timestamp("2024-01-02 03:04:05 GMT+1:30"),
            Ok(t - 5_400_000)
        );
        assert_eq!(parse_timestamp("2024-01-02Z"), Ok(JAN_2_2024));
        assert_eq!(parse_timestamp("1704153600000"), Ok(JAN_2_2024));
        assert_eq!(parse_timestamp("-1"), Ok(-1));
    }

    /// Results of commons-lang3 `DateUtils.parseDateStrictly(text, TimestampSerializer's
    /// patterns)` on a JVM whose default zone is UTC (`None`: it threw).
    #[test]
    fn vectors_checked_against_commons_lang() {
        let cases: [(&str, Option<i64>); 24] = [
            ("2024-01-02 03:04:05 GMT-0:30", Some(1_704_166_445_000)),
            ("2024-01-02 03:04:05 GMT+10:00", Some(1_704_128_645_000)),
            ("2024-01-02 03:04:05 gmt+1:30", Some(1_704_159_245_000)),
            ("2024-01-02 03:04:05 +2359", Some(1_704_078_305_000)),
            ("2024-01-02 03:04:05-2359", Some(1_704_250_985_000)),
            ("2024-01-02T03:04:05.678+05:30", Some(1_704_144_845_678)),
            ("2024-01-02 -0530", Some(1_704_173_400_000)),
            ("2024-01-02-05:30", Some(1_704_173_400_000)),
            ("2024-01-02 03:04:05.5Z", Some(1_704_164_645_005)),
            ("2024-01-02 03:04:05. 5", Some(1_704_164_645_005)),
            ("2024-1-2 3:4", Some(1_704_164_640_000)),
            ("2024-001-02", Some(JAN_2_2024)),
            ("02024-01-02", Some(JAN_2_2024)),
            (" 2024-01-02", Some(JAN_2_2024)),
            ("2024- 01-02", Some(JAN_2_2024)),
            ("2024-01-02  03:04", Some(1_704_164_640_000)),
            ("24-01-02", Some(-61_409_923_200_000)),
            ("292278994-08-17 07:12:55.807Z", Some(i64::MAX)),
            ("+2024-01-02", None),
            ("2024-01-02 03:04 ", None),
            ("2024-01-02 03:04:05  UTC", None),
            ("2024-01-02 03:04:05 Z", None),
            ("2024-01-02 03:04:05+2400", None),
            ("2024-01-02 03:04:05 +01:00", None),
        ];
        for (text, expected) in cases {
            assert_eq!(parse_timestamp(text).ok(), expected, "{text}");
        }
    }

    #[test]
    fn millisecond_field_is_a_count_not_a_fraction() {
        let t = JAN_2_2024 + 5_000;
        assert_eq!(parse_timestamp("2024-01-02 00:00:05.5"), Ok(t + 5));
        assert_eq!(parse_timestamp("2024-01-02 00:00:05.50"), Ok(t + 50));
        assert_eq!(parse_timestamp("2024-01-02 00:00:05.0999"), Ok(t + 999));
        assert!(parse_timestamp("2024-01-02 00:00:05.1234").is_err());
    }

    #[test]
    fn timestamp_rejections() {
        for bad in [
            "2024-13-01",
            "2024-02-30",
            "2023-02-29 00:00",
            "2024-01-02 24:00",
            "2024-01-02 03:04:60",
            "2024-01-02x",
            "1582-10-10",
            "0000-01-01",
            "",
            "9223372036854775808",
        ] {
            assert!(parse_timestamp(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn zone_names_are_refused() {
        // Java also takes the JVM's zone display names ("PST", "CET", "Coordinated
        // Universal Time"), whose offsets depend on its time-zone data; we do not guess.
        assert_eq!(
            parse_timestamp("2024-01-02 03:04:05 PST"),
            Err("time zone names other than UTC and GMT are not supported")
        );
    }

    #[test]
    fn julian_dates_before_the_cutover() {
        // Checked against commons-lang3 on a UTC JVM.
        assert_eq!(parse_timestamp("1582-10-04"), Ok(-12_219_379_200_000));
        assert_eq!(parse_timestamp("1582-10-15"), Ok(-12_219_292_800_000));
        assert_eq!(parse_timestamp("1000-01-01"), Ok(-30_609_792_000_000));
        assert_eq!(parse_timestamp("1500-02-29"), Ok(-14_825_894_400_000));
        // 1582-10-04 (Julian) is the day before 1582-10-15 (Gregorian).
        let cutover = parse_timestamp("1582-10-15").expect("valid");
        assert_eq!(parse_timestamp("1582-10-04"), Ok(cutover - MILLIS_PER_DAY));
        // Julian 1000-01-01 is proleptic Gregorian 1000-01-06.
        let proleptic = proleptic_days(1000, 1, 6) * MILLIS_PER_DAY;
        assert_eq!(parse_timestamp("1000-01-01"), Ok(proleptic));
        // 1500 is a Julian leap year.
        assert!(parse_timestamp("1500-02-29").is_ok());
    }

    #[test]
    fn dates() {
        assert_eq!(parse_date("1970-01-01"), Ok(1 << 31));
        assert_eq!(parse_date("1970-01-02"), Ok((1 << 31) + 1));
        assert_eq!(parse_date("1969-12-31"), Ok((1 << 31) - 1));
        assert_eq!(parse_date("2024-01-02"), Ok((1 << 31) + 19_724));
        assert_eq!(parse_date("0"), Ok(0));
        assert_eq!(parse_date("4294967295"), Ok(u32::MAX));
        assert!(parse_date("4294967296").is_err());
        assert!(parse_date("-1").is_err());
        assert!(parse_date("2024-1-02").is_err());
        assert!(parse_date("+2024-01-02").is_err());
        assert!(parse_date("2023-02-29").is_err());
        assert_eq!(
            parse_date("+10000-01-01"),
            Ok(((1i64 << 31) + proleptic_days(10000, 1, 1)) as u32)
        );
        assert_eq!(
            parse_date("-0001-01-01"),
            Ok(((1i64 << 31) + proleptic_days(-1, 1, 1)) as u32)
        );
        // The first and last representable days.
        assert_eq!(parse_date("-5877641-06-23"), Ok(0));
        assert_eq!(parse_date("+5881580-07-11"), Ok(u32::MAX));
        assert!(
            parse_date("5881580-07-11").is_err(),
            "a year past 9999 needs its sign"
        );
        assert!(parse_date("+5881580-07-12").is_err());
    }

    #[test]
    fn proleptic_days_agree_across_the_cycle_shift() {
        assert_eq!(proleptic_days(1970, 1, 1), 0);
        assert_eq!(proleptic_days(2000, 3, 1), 11_017);
        // Shifting by 400 years is always 146097 days.
        assert_eq!(
            proleptic_days(-4400, 5, 6) + 146_097,
            proleptic_days(-4000, 5, 6)
        );
    }

    #[test]
    fn times() {
        assert_eq!(parse_time("00:00:00"), Ok(0));
        assert_eq!(parse_time("01:02:03"), Ok(3_723_000_000_000));
        assert_eq!(parse_time("01:02:03.5"), Ok(3_723_500_000_000));
        assert_eq!(parse_time("23:59:59.999999999"), Ok(NANOS_PER_DAY - 1));
        assert_eq!(parse_time(" 1:2:3 "), Ok(3_723_000_000_000));
        assert_eq!(parse_time("12345"), Ok(12_345));
        assert!(parse_time("86400000000000").is_err());
        assert!(parse_time("24:00:00").is_err());
        assert!(parse_time("01:02:03.").is_err());
        assert!(parse_time("01:02:03.1234567890").is_err());
        assert!(parse_time("01:02").is_err());
        assert!(parse_time("").is_err());
    }
}
