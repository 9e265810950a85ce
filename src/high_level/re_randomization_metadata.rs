//! The re-randomization metadata that values carry, and gpufhe's own format's
//! refusals of what it has no place for (re-randomization parameters, key material
//! and metadata: TFHE-rs's form carries them).

/// The re-randomization metadata of a value, a part of TFHE-rs's values: bytes that
/// a [`crate::ReRandomizationContext`] hashes with the value (see
/// [`crate::ReRandomize`]). Values carry it through `into_raw_parts` /
/// `from_raw_parts`, clones and TFHE-rs's serialized form; results of operations
/// and re-randomized values have none.
///
/// ```
/// use gpufhe::ReRandomizationMetadata;
/// let metadata = ReRandomizationMetadata::new(b"context");
/// assert_eq!(metadata.data(), b"context");
/// assert!(ReRandomizationMetadata::default().data().is_empty());
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct ReRandomizationMetadata {
    data: Vec<u8>,
}

impl ReRandomizationMetadata {
    /// Metadata holding `data`.
    ///
    /// ```
    /// use gpufhe::ReRandomizationMetadata;
    /// assert_eq!(ReRandomizationMetadata::new(&[1, 2]).data(), &[1, 2]);
    /// ```
    pub fn new(data: &[u8]) -> Self {
        Self {
            data: data.to_vec(),
        }
    }

    /// The bytes.
    ///
    /// ```
    /// use gpufhe::ReRandomizationMetadata;
    /// assert_eq!(ReRandomizationMetadata::new(b"x").data(), b"x");
    /// ```
    pub fn data(&self) -> &[u8] {
        &self.data
    }

    /// Replaces the bytes with `data`.
    ///
    /// ```
    /// use gpufhe::ReRandomizationMetadata;
    /// let mut metadata = ReRandomizationMetadata::default();
    /// metadata.set_data(b"proof");
    /// assert_eq!(metadata.data(), b"proof");
    /// ```
    pub fn set_data(&mut self, data: &[u8]) {
        self.data.clear();
        self.data.extend_from_slice(data);
    }

    /// Removes the bytes.
    ///
    /// ```
    /// use gpufhe::ReRandomizationMetadata;
    /// let mut metadata = ReRandomizationMetadata::new(b"proof");
    /// metadata.clear();
    /// assert!(metadata.data().is_empty());
    /// ```
    pub fn clear(&mut self) {
        self.data.clear();
    }
}

/// Serializes the re-randomization parameters or key material of gpufhe's own
/// format: a unit when there is none, an `Err` otherwise (TFHE-rs's form carries
/// them).
pub(crate) fn not_in_own_format<T, S: serde::Serializer>(
    value: &Option<T>,
    s: S,
) -> std::result::Result<S::Ok, S::Error> {
    if value.is_some() {
        Err(in_own_format())
    } else {
        s.serialize_unit()
    }
}

/// The error of writing re-randomization parameters or keys in gpufhe's own format.
pub(crate) fn in_own_format<E: serde::ser::Error>() -> E {
    E::custom(
        "re-randomization parameters and keys have no form in gpufhe's own format: write them \
         in TFHE-rs's (safe_serialization::safe_serialize)",
    )
}

/// `Err` if a value written in gpufhe's own format has re-randomization metadata
/// (the format has no place for it; TFHE-rs's form carries it).
pub(crate) fn no_metadata_in_own_format<E: serde::ser::Error>(
    metadata: &ReRandomizationMetadata,
) -> std::result::Result<(), E> {
    if metadata.data().is_empty() {
        Ok(())
    } else {
        Err(E::custom(
            "a value with re-randomization metadata has no form in gpufhe's own format: write \
             it in TFHE-rs's (safe_serialization::safe_serialize), or clear the metadata",
        ))
    }
}
