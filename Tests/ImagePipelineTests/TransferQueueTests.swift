import ImagePipeline
import Testing

/// The loading pipeline's policies, exact: time is passed in.
@Suite struct TransferQueueTests {
    typealias Queue = TransferQueue<String>
    let t0 = Duration.seconds(10)

    func drain(_ queue: inout Queue, at time: Duration) -> [String] {
        var started: [String] = []
        while let key = queue.nextToStart(at: time) { started.append(key) }
        return started
    }

    /// A start that made no request (a kept copy) goes back to the bucket.
    @Test func aStartThatMadeNoRequestGoesBackToTheBucket() {
        var queue = Queue(policy: TransferPolicy(connections: 10, prefetchConnections: 5, startsPerSecond: 1, burst: 1), now: t0)
        queue.add("a", priority: 0)
        queue.add("b", priority: 1)
        #expect(queue.nextToStart(at: t0) == "a")
        #expect(queue.nextToStart(at: t0) == nil, "the bucket is empty")
        queue.finished("a")
        queue.refundStart()
        #expect(queue.nextToStart(at: t0) == "b")
        queue.refundStart()
        queue.refundStart()
        queue.add("c", priority: 0)
        queue.add("d", priority: 0)
        #expect(drain(&queue, at: t0) == ["c"], "never more than the bucket holds")
    }

    @Test func lowerPriorityFirstThenTheOldest() {
        var queue = Queue(policy: TransferPolicy(connections: 10, prefetchConnections: 10), now: t0)
        queue.add("far", priority: RequestPriority.visible(distance: 30))
        queue.add("near", priority: RequestPriority.visible(distance: 2))
        queue.add("detail", priority: RequestPriority.detail)
        queue.add("also near", priority: RequestPriority.visible(distance: 2))
        queue.add("prefetch", priority: RequestPriority.prefetch(distance: 0))
        #expect(drain(&queue, at: t0) == ["detail", "near", "also near", "far", "prefetch"])
    }

    @Test func prefetchNeverHoldsTheSlotsVisibleCellsNeed() {
        var queue = Queue(policy: TransferPolicy(connections: 6, prefetchConnections: 3), now: t0)
        for index in 0..<10 { queue.add("p\(index)", priority: RequestPriority.prefetch(distance: index)) }
        #expect(drain(&queue, at: t0) == ["p0", "p1", "p2"], "at most half the slots for prefetch")
        #expect(queue.runningPrefetches == 3)
        // Visible requests arriving now take the other three at once.
        for index in 0..<5 { queue.add("v\(index)", priority: RequestPriority.visible(distance: index)) }
        #expect(drain(&queue, at: t0) == ["v0", "v1", "v2"])
        #expect(queue.runningCount == 6)
        // A prefetch that ends frees a slot; the visible ones waiting go first.
        queue.finished("p0")
        #expect(drain(&queue, at: t0) == ["v3"])
        queue.finished("p1")
        #expect(drain(&queue, at: t0) == ["v4"])
        queue.finished("p2")
        #expect(drain(&queue, at: t0) == ["p3"])
    }

    @Test func aPrefetchThatBecomesVisibleIsPromoted() {
        var queue = Queue(policy: TransferPolicy(connections: 2, prefetchConnections: 1), now: t0)
        queue.add("v", priority: RequestPriority.visible(distance: 0))
        queue.add("p-running", priority: RequestPriority.prefetch(distance: 1))
        #expect(drain(&queue, at: t0) == ["v", "p-running"])
        for index in 0..<4 { queue.add("p\(index)", priority: RequestPriority.prefetch(distance: 10 + index)) }
        // The person scrolls: p3's cell is on screen now.
        queue.update("p3", priority: RequestPriority.visible(distance: 5))
        #expect(queue.promoted == 1)
        queue.finished("v")
        #expect(drain(&queue, at: t0) == ["p3"], "promoted ahead of the older prefetches, and past the prefetch cap")
        // A running prefetch promoted no longer counts against the cap.
        queue.update("p-running", priority: RequestPriority.visible(distance: 1))
        #expect(queue.runningPrefetches == 0)
    }

    @Test func theRateLimitHoldsAFlingToItsBudget() {
        // Nuke's: 80 starts a second, 25 at once (ours are twice that, D-055; the rule is the same).
        var queue = Queue(policy: TransferPolicy(connections: 1000, prefetchConnections: 1000, startsPerSecond: 80, burst: 25), now: t0)
        for index in 0..<300 { queue.add("k\(index)", priority: RequestPriority.visible(distance: index)) }
        #expect(drain(&queue, at: t0).count == 25, "the burst")
        #expect(drain(&queue, at: t0).isEmpty)
        let next = try! #require(queue.nextStartTime(at: t0))
        #expect(next == t0 + .milliseconds(12.5))
        #expect(drain(&queue, at: t0 + .milliseconds(12)).isEmpty)
        #expect(drain(&queue, at: t0 + .milliseconds(13)).count == 1)
        // Asked every frame at 120 Hz for the next second: 80 more, not the 274 waiting.
        var started = 0
        for frame in 1...120 { started += drain(&queue, at: t0 + .milliseconds(13) + .seconds(Double(frame) / 120)).count }
        #expect(started == 80)
        // After a long quiet spell the bucket holds the burst, no more.
        #expect(drain(&queue, at: t0 + .seconds(60)).count == 25)
    }

    @Test func aCancelledWaitingTransferNeverStarts() {
        var queue = Queue(policy: TransferPolicy(connections: 1, prefetchConnections: 1), now: t0)
        queue.add("a", priority: 0)
        queue.add("b", priority: 1)
        #expect(drain(&queue, at: t0) == ["a"])
        let wasWaiting = queue.remove("b")
        #expect(wasWaiting, "it was waiting")
        queue.finished("a")
        #expect(drain(&queue, at: t0).isEmpty)
        let runningWasWaiting = queue.remove("a")
        #expect(!runningWasWaiting, "a running one was not waiting")
    }

    @Test func addingAKeyTwiceKeepsOneTransfer() {
        var queue = Queue(now: t0)
        queue.add("a", priority: RequestPriority.prefetch(distance: 3))
        queue.add("a", priority: RequestPriority.visible(distance: 3))
        #expect(queue.waitingCount == 1)
        #expect(queue.priority(of: "a") == RequestPriority.visible(distance: 3))
        #expect(drain(&queue, at: t0) == ["a"])
        queue.add("a", priority: 0)
        #expect(queue.waitingCount == 0 && queue.runningCount == 1, "a running key is not queued again")
    }
}
