//! [`ServerKey`]: TFHE-rs's integer server key, the block server key that the
//! high-level [`crate::ServerKey`] is assembled from (its raw parts).

use crate::shortint;

/// The server key of integers: the server key of their blocks (TFHE-rs's
/// `tfhe::integer::ServerKey`). gpufhe's integer algorithms take the block key
/// through a circuit ([`crate::integer::run`]); this type is the first of
/// [`crate::ServerKey::into_raw_parts`]'s parts, as in TFHE-rs.
///
/// ```
/// use gpufhe::shortint;
/// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
/// let ck = shortint::ClientKey::new(TEST_PARAMS).unwrap();
/// let key = gpufhe::integer::ServerKey::from_raw_parts(shortint::ServerKey::new(&ck).unwrap());
/// assert_eq!(key.into_raw_parts().parameters(), &TEST_PARAMS);
/// ```
#[derive(Debug, Clone)]
pub struct ServerKey {
    key: shortint::ServerKey,
}

impl ServerKey {
    /// The key of integers whose blocks `key` computes on.
    ///
    /// ```
    /// use gpufhe::shortint;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// let ck = shortint::ClientKey::new(TEST_PARAMS).unwrap();
    /// let key = gpufhe::integer::ServerKey::from_raw_parts(shortint::ServerKey::new(&ck).unwrap());
    /// assert_eq!(key.shortint_key().parameters().message_modulus, 4);
    /// ```
    pub fn from_raw_parts(key: shortint::ServerKey) -> Self {
        Self { key }
    }

    /// The server key of the blocks.
    ///
    /// ```
    /// use gpufhe::shortint;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// let ck = shortint::ClientKey::new(TEST_PARAMS).unwrap();
    /// let key = gpufhe::integer::ServerKey::from_raw_parts(shortint::ServerKey::new(&ck).unwrap());
    /// let block_key = key.into_raw_parts();
    /// let mut sum = ck.encrypt(1).unwrap();
    /// block_key.unchecked_add_assign(&mut sum, &ck.encrypt(2).unwrap()).unwrap();
    /// assert_eq!(ck.decrypt(&sum).unwrap(), 3);
    /// ```
    pub fn into_raw_parts(self) -> shortint::ServerKey {
        self.key
    }

    /// The server key of the blocks, borrowed.
    ///
    /// ```
    /// use gpufhe::shortint;
    /// # use gpufhe::shortint::PARAM_INSECURE_TEST_MESSAGE_2_CARRY_2 as TEST_PARAMS;
    /// let ck = shortint::ClientKey::new(TEST_PARAMS).unwrap();
    /// let key = gpufhe::integer::ServerKey::from_raw_parts(shortint::ServerKey::new(&ck).unwrap());
    /// assert_eq!(key.shortint_key().parameters(), &TEST_PARAMS);
    /// ```
    pub fn shortint_key(&self) -> &shortint::ServerKey {
        &self.key
    }
}

impl From<ServerKey> for shortint::ServerKey {
    fn from(key: ServerKey) -> Self {
        key.key
    }
}
