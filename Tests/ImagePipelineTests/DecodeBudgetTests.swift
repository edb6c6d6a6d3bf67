import CoreKit
import Foundation
@testable import ImagePipeline
import Testing

/// What a decode may take (issue 43): 12-KB PNGs that claim 100 megapixels are refused from
/// their header, before a byte of pixels exists; one just under the per-picture limit
/// decodes, holding its share of the budget every worker shares; a share that does not fit
/// waits for one that leaves.
@Suite struct DecodeBudgetTests {
    @Test func aPNGBombIsRefusedFromItsHeader() throws {
        let bomb = fixture("bomb-100mp.png")
        let bytes = try #require(FileManager.default.contents(atPath: bomb))
        #expect(bytes.count < 16 << 10, "a bomb is small: \(bytes.count) bytes")
        let budget = DecodeBudget(bytes: 160 << 20)
        let preparer = ImagePreparer(colorMode: .truecolor, budget: budget)
        #expect(throws: ImageError.tooLarge(path: bomb, width: 10_000, height: 10_000)) {
            try preparer.prepare(Array(bytes), as: AssetID(path: bomb), columns: 8, rows: 4)
        }
        #expect(budget.reserved == 0 && budget.waits == 0, "refused before reserving")
        #expect(ImageError.tooLarge(path: "b.png", width: 10_000, height: 10_000).description
                == "b.png: 10000×10000 pixels would decode to more than the 24 megapixels a picture may take")
    }

    @Test func aPictureUnderTheLimitDecodesWithinTheBudgetAndGivesItBack() throws {
        let path = fixture("bomb-23mp.png")
        let bytes = try #require(FileManager.default.contents(atPath: path))
        let budget = DecodeBudget(bytes: 160 << 20)
        let preparer = ImagePreparer(colorMode: .truecolor, budget: budget)
        let image = try preparer.prepare(Array(bytes), as: AssetID(path: path), columns: 8, rows: 4)
        #expect(image.columns == 8)
        #expect(budget.reserved == 0, "given back once the cells are made")
        // More than the whole budget is refused, never waited for.
        #expect(throws: ImageError.tooLarge(path: path, width: 4_800, height: 4_800)) {
            try ImagePreparer(colorMode: .truecolor, budget: DecodeBudget(bytes: 64 << 20)).prepare(Array(bytes), as: AssetID(path: path), columns: 8, rows: 4)
        }
    }

    /// Ordered by the budget's own counter, not by time: the second reservation is seen
    /// waiting, then the first leaves, then the second holds.
    @Test func aShareThatDoesNotFitWaitsForOneThatLeaves() async throws {
        let budget = DecodeBudget(bytes: 100)
        var first: DecodeBudget.Reservation? = try budget.reserve(70, path: "a", width: 1, height: 1)
        #expect(budget.reserved == 70)
        let second = Lock<DecodeBudget.Reservation?>(nil)
        let thread = Thread {
            let reservation = try? budget.reserve(50, path: "b", width: 1, height: 1)
            second.withLock { $0 = reservation }
        }
        thread.start()
        while budget.waits == 0 { try await Task.sleep(for: .milliseconds(1)) }
        #expect(budget.reserved == 70 && second.withLock { $0 == nil }, "waiting, not taken")
        first = nil
        _ = first
        while second.withLock({ $0 == nil }) { try await Task.sleep(for: .milliseconds(1)) }
        #expect(budget.reserved == 50)
        second.withLock { $0 = nil }
        #expect(budget.reserved == 0)
    }
}
