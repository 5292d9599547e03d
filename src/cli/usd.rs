//! USD amounts on the command line: exact decimal text, never negative. Parses only.

use drugcite_accounts::Credit;

pub fn usd(raw: &str) -> Result<Credit, String> {
    let credit = Credit::parse_usd(raw).map_err(|e| e.to_string())?;
    if credit < Credit::ZERO {
        return Err("must not be negative".into());
    }
    Ok(credit)
}
