//! Throttling of the requests that make drugcite send mail (sign-up, a confirmation link sent
//! again, a password reset): a budget per client address, one per network (IPv4 /24, IPv6
//! /48) and one per recipient. Counts only; holds no addresses beyond the limiter's keys.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::num::NonZeroU32;

use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use crate::signup_rules::Onboarding;
use crate::{AccountError, Email};

pub struct MailThrottle {
    per_address: DefaultKeyedRateLimiter<Option<IpAddr>>,
    per_network: DefaultKeyedRateLimiter<Option<IpAddr>>,
    per_recipient: DefaultKeyedRateLimiter<String>,
}

impl MailThrottle {
    pub fn new(settings: &Onboarding) -> Self {
        let hourly = |n: NonZeroU32| Quota::per_hour(n);
        Self {
            per_address: RateLimiter::keyed(hourly(settings.signups_per_address_per_hour)),
            per_network: RateLimiter::keyed(hourly(settings.signups_per_network_per_hour)),
            per_recipient: RateLimiter::keyed(hourly(settings.mails_per_recipient_per_hour)),
        }
    }

    /// Counts one mail-sending request; `MailThrottled` once any budget is spent. The answer
    /// is the same whether or not `email` has an account.
    pub fn attempt(&self, email: &Email, address: Option<IpAddr>) -> Result<(), AccountError> {
        // One refusal spends nothing further: a client out of its own budget cannot use up
        // its network's.
        let allowed = self.per_address.check_key(&address).is_ok()
            && self.per_network.check_key(&address.map(network)).is_ok()
            && self.per_recipient.check_key(&email.to_string()).is_ok();
        if allowed {
            Ok(())
        } else {
            Err(AccountError::MailThrottled)
        }
    }

    pub fn forget_idle(&self) {
        self.per_address.retain_recent();
        self.per_network.retain_recent();
        self.per_recipient.retain_recent();
    }
}

/// The network an address belongs to, as its first address: IPv4 /24, IPv6 /48 (one
/// customer's site, typically).
fn network(address: IpAddr) -> IpAddr {
    match address {
        IpAddr::V4(v4) => Ipv4Addr::from(u32::from(v4) & 0xffff_ff00).into(),
        IpAddr::V6(v6) => Ipv6Addr::from(u128::from(v6) & !((1u128 << 80) - 1)).into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(per_address: u32, per_network: u32) -> Onboarding {
        Onboarding {
            signups_per_address_per_hour: NonZeroU32::new(per_address).unwrap(),
            signups_per_network_per_hour: NonZeroU32::new(per_network).unwrap(),
            ..Onboarding::default()
        }
    }

    fn email(i: u32) -> Email {
        Email::parse(&format!("user{i}@example.org")).unwrap()
    }

    #[test]
    fn one_address_then_its_network_run_out() {
        let throttle = MailThrottle::new(&settings(2, 3));
        let ip = |last: u8| Some(IpAddr::from([203, 0, 113, last]));
        assert!(throttle.attempt(&email(1), ip(1)).is_ok());
        assert!(throttle.attempt(&email(2), ip(1)).is_ok());
        assert!(matches!(
            throttle.attempt(&email(3), ip(1)),
            Err(AccountError::MailThrottled)
        ));
        assert!(throttle.attempt(&email(4), ip(2)).is_ok());
        assert!(
            throttle.attempt(&email(5), ip(3)).is_err(),
            "the /24 is spent"
        );
        assert!(throttle
            .attempt(&email(6), Some(IpAddr::from([198, 51, 100, 1])))
            .is_ok());
    }

    #[test]
    fn networks_are_slash_24_and_slash_48() {
        assert_eq!(
            network("203.0.113.77".parse().unwrap()),
            "203.0.113.0".parse::<IpAddr>().unwrap()
        );
        assert_eq!(
            network("2001:db8:aa:1::9".parse().unwrap()),
            "2001:db8:aa::".parse::<IpAddr>().unwrap()
        );
    }

    #[test]
    fn one_inbox_gets_a_few_mails_an_hour() {
        let throttle = MailThrottle::new(&settings(100, 100));
        let budget = Onboarding::default().mails_per_recipient_per_hour.get();
        for i in 0..budget {
            let ip = Some(IpAddr::from([10, 0, i as u8, 1]));
            assert!(throttle.attempt(&email(1), ip).is_ok());
        }
        assert!(throttle
            .attempt(&email(1), Some(IpAddr::from([10, 9, 9, 9])))
            .is_err());
    }
}
