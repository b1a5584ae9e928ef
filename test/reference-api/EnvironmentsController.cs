using System.Collections.Concurrent;
using Microsoft.AspNetCore.Mvc;
using Microsoft.Net.Http.Headers;

namespace ReferenceApi;

// ETags the way an ASP.NET Core service usually has them (RFC 9110): each environment has a tag of its own, the
// version of the store that last changed it ("e7"), served on GET by id, on a create and on an update; If-Match on
// PUT and DELETE is compared with it strongly. The list carries a tag of its own ("l9"), which is no item's. The
// versions are the store's, not the records' fields: nothing is added to what a client reads and sends back. The
// sandbox's `etags: 'item'` models the same (src/sandbox/etags.ts).
public sealed class EnvironmentStore
{
    // Insertion order is kept so the list reads like the sandbox's.
    private readonly ConcurrentDictionary<Guid, EnvironmentRecord> _records = new();
    private long _order;
    private readonly ConcurrentDictionary<Guid, long> _orderOf = new();
    private readonly ConcurrentDictionary<Guid, long> _versionOf = new();

    /** Held by a request that reads versions and writes on them, so that a check and its write are one step. */
    public object Gate { get; } = new();

    public long Version { get; private set; }

    public IEnumerable<EnvironmentRecord> All() =>
        _records.Values.OrderBy(record => _orderOf.GetValueOrDefault(record.Id));

    public EnvironmentRecord? Find(Guid id) => _records.GetValueOrDefault(id);

    public long VersionOf(Guid id) => _versionOf.GetValueOrDefault(id);

    public void Add(EnvironmentRecord record)
    {
        _orderOf[record.Id] = Interlocked.Increment(ref _order);
        _records[record.Id] = record;
        Wrote(record.Id);
    }

    public void Wrote(Guid id) => _versionOf[id] = ++Version;

    public bool Remove(Guid id)
    {
        if (!_records.TryRemove(id, out _)) return false;
        _versionOf.TryRemove(id, out _);
        Version++;
        return true;
    }
}

// The controller as such a service is usually written: [ApiController] does model validation (automatic 400
// ProblemDetails), turns NotFound() into a ProblemDetails 404, and answers 415 for a body that is not JSON.
[ApiController]
[Route("ms/[controller]")]
public sealed class EnvironmentsController(EnvironmentStore store, TimeProvider clock) : ControllerBase
{
    [HttpGet]
    public IEnumerable<EnvironmentRecord> List()
    {
        lock (store.Gate)
        {
            Response.Headers.ETag = new EntityTagHeaderValue($"\"l{store.Version}\"").ToString();
            return store.All().ToList();
        }
    }

    // Not in the published spec, but CreatedAtAction needs an action to point at, and services like this have one.
    [HttpGet("{id:guid}")]
    public ActionResult<EnvironmentRecord> Get(Guid id)
    {
        lock (store.Gate)
        {
            if (store.Find(id) is not { } record) return NotFound();
            Response.Headers.ETag = Tag(id).ToString();
            return record;
        }
    }

    [HttpPost]
    public ActionResult<EnvironmentRecord> Create(EnvironmentInput environment)
    {
        var now = clock.GetUtcNow();
        var record = new EnvironmentRecord { Id = Guid.NewGuid(), CreatedAt = now };
        record.Apply(environment, now);
        lock (store.Gate)
        {
            store.Add(record);
            Response.Headers.ETag = Tag(record.Id).ToString();
        }
        return CreatedAtAction(nameof(Get), new { id = record.Id }, record);
    }

    // PUT replaces the record and answers 204 No Content, as the scaffolded ASP.NET controllers do.
    [HttpPut("{id:guid}")]
    public IActionResult Update(Guid id, EnvironmentInput environment)
    {
        lock (store.Gate)
        {
            if (store.Find(id) is not { } record) return NotFound();
            if (!PreconditionHolds(id)) return StatusCode(StatusCodes.Status412PreconditionFailed);
            record.Apply(environment, clock.GetUtcNow());
            store.Wrote(id);
            Response.Headers.ETag = Tag(id).ToString();
            return NoContent();
        }
    }

    [HttpDelete("{id:guid}")]
    public IActionResult Delete(Guid id)
    {
        lock (store.Gate)
        {
            if (store.Find(id) is null) return NotFound();
            if (!PreconditionHolds(id)) return StatusCode(StatusCodes.Status412PreconditionFailed);
            store.Remove(id);
            return NoContent();
        }
    }

    private EntityTagHeaderValue Tag(Guid id) => new($"\"e{store.VersionOf(id)}\"");

    // If-Match, parsed and compared by the framework: `*`, or the item's current tag, compared strongly (a weak tag
    // never matches). A header whose value does not parse gives no tags, and so holds for nothing.
    private bool PreconditionHolds(Guid id)
    {
        if (Request.Headers.IfMatch.Count == 0) return true;
        var current = Tag(id);
        return Request.GetTypedHeaders().IfMatch.Any(tag =>
            tag.Equals(EntityTagHeaderValue.Any) || tag.Compare(current, useStrongComparison: true));
    }
}
