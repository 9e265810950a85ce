//! What the examples share: a seeded generator of clear values and the count of
//! operations read from the command line or the environment.
#![allow(dead_code)]

/// xorshift64*, to keep the examples free of dependencies.
pub fn next(state: &mut u64) -> u64 {
    *state ^= *state >> 12;
    *state ^= *state << 25;
    *state ^= *state >> 27;
    state.wrapping_mul(0x2545_f491_4f6c_dd1d)
}

/// How many `what` to run: the first argument, else the environment variable
/// `variable`, else `default`. An invalid value is an error that says what was
/// expected, with `example`'s command line as an example.
pub fn count(variable: &str, default: usize, what: &str, example: &str) -> Result<usize, String> {
    let (source, text) = match std::env::args().nth(1) {
        Some(arg) => ("the argument", arg),
        None => match std::env::var(variable) {
            Ok(value) => (variable, value),
            Err(std::env::VarError::NotPresent) => return Ok(default),
            Err(e) => return Err(format!("{variable}: {e}")),
        },
    };
    match text.trim().parse::<usize>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(format!(
            "invalid number of {what} {text:?} from {source}: expected a positive number, \
             e.g. `cargo run --release --example {example} -- 200`"
        )),
    }
}
