@testable import CoreKit
import Dispatch
import Foundation
import Testing

@Suite struct LockTests {
    /// Four threads, 10,000 increments each: nothing lost, so the lock excludes.
    @Test func concurrentIncrementsAreNotLost() {
        let counter = Lock(0)
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<10_000 { counter.withLock { $0 += 1 } }
        }
        #expect(counter.withLock { $0 } == 40_000)
    }

    @Test func withLockReturnsAndRethrows() throws {
        struct Refused: Error {}
        let lock = Lock([1, 2, 3])
        #expect(lock.withLock { $0.removeLast() } == 3)
        #expect(throws: Refused.self) { try lock.withLock { _ in throw Refused() } }
        // The lock was released by the throw: taking it again does not deadlock.
        #expect(lock.withLock { $0 } == [1, 2])
    }
}

@Suite struct MailboxTests {
    /// Each sender's messages come out in the order it posted them, none lost.
    @Test func concurrentSendersKeepTheirOrder() {
        let box = Mailbox<(sender: Int, sequence: Int)>()
        DispatchQueue.concurrentPerform(iterations: 4) { sender in
            for sequence in 0..<2_000 { box.post((sender, sequence)) }
        }
        let messages = box.drain()
        #expect(messages.count == 8_000)
        for sender in 0..<4 {
            #expect(messages.filter { $0.sender == sender }.map(\.sequence) == Array(0..<2_000))
        }
        #expect(box.drain().isEmpty && box.count == 0)
    }

    /// The drainer gets a copy it allocated; the posters' storage stays in the box, empty,
    /// and takes the next posts without growing (D-059: freeing a poster's storage on the
    /// frame loop waited for the poster's malloc arena).
    @Test func theDrainerNeverTakesThePostersStorage() {
        let box = Mailbox<Int>()
        let finished = DispatchSemaphore(value: 0)
        Thread {  // a poster of its own, as the workers are
            for value in 0..<100 { box.post(value) }
            finished.signal()
        }.start()
        finished.wait()
        let before = box.storage
        let drained = box.drain()
        #expect(drained == Array(0..<100))
        let drainedAddress = drained.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
        #expect(drainedAddress != before.address, "a copy, not the posters' array")
        let after = box.storage
        #expect(after.address == before.address && after.capacity == before.capacity, "the storage stays, emptied")
        #expect(box.count == 0)
        for value in 0..<100 { box.post(value) }
        #expect(box.storage.address == before.address, "the next posts fill the same storage")
        #expect(box.drainIfAvailable() == Array(0..<100))
    }
}

@Suite struct HandOverTests {
    /// What a poster filled is copied out; the poster's storage stays, emptied, for reuse.
    @Test func takingAllCopiesAndKeepsTheStorage() {
        var box: [String] = []
        box.reserveCapacity(64)
        for index in 0..<50 { box.append("item \(index)") }
        let storage = box.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
        let capacity = box.capacity
        let taken = box.takeAllKeepingStorage()
        #expect(taken == (0..<50).map { "item \($0)" })
        #expect(taken.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) } != storage, "a copy, not the poster's array")
        #expect(box.isEmpty && box.capacity == capacity)
        box.append("next")
        #expect(box.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) } == storage, "the next post fills the same storage")
        var empty: [Int] = []
        #expect(empty.takeAllKeepingStorage().isEmpty)
    }
}

@Suite struct TryLockTests {
    /// While another thread holds the lock, the main thread's try gives up at once.
    @Test func aHeldLockIsNotWaitedFor() {
        let lock = Lock(7)
        let holding = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            lock.withLock { _ in
                holding.signal()
                release.wait()
            }
            done.signal()
        }
        holding.wait()
        #expect(lock.withLockIfAvailable { $0 } == nil)
        release.signal()
        done.wait()
        #expect(lock.withLockIfAvailable { $0 } == 7)
    }
}
