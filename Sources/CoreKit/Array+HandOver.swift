extension Array {
    /// Copies the elements out into a new array and empties this one, keeping its storage.
    ///
    /// For the frame loop taking what other threads put in a box (a ``Mailbox``, a data
    /// source's finished updates). Swapping the array out would be O(1), but its storage
    /// was allocated by a poster, in that thread's glibc arena, and the frame loop would
    /// free it; freeing memory of another arena takes that arena's lock, which a poster — a
    /// low-priority thread preempted while it allocates — may hold for milliseconds. Seen
    /// as the frame loop asleep in `_int_free`, a missed frame (D-059, D-061). Copied, the
    /// array the taker frees later is its own, and the posters reuse theirs.
    /// (`Array(self)` would not copy: it shares the storage.)
    @inlinable
    public mutating func takeAllKeepingStorage() -> [Element] {
        guard !isEmpty else { return [] }
        let taken = [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
            initialized = buffer.initialize(fromContentsOf: self)
        }
        removeAll(keepingCapacity: true)
        return taken
    }
}
