using System.Collections.Concurrent;
using Microsoft.AspNetCore.Mvc;

namespace ReferenceApi;

public sealed class EnvironmentStore
{
    // Insertion order is kept so the list reads like the sandbox's.
    private readonly ConcurrentDictionary<Guid, EnvironmentRecord> _records = new();
    private long _order;
    private readonly ConcurrentDictionary<Guid, long> _orderOf = new();

    public IEnumerable<EnvironmentRecord> All() =>
        _records.Values.OrderBy(record => _orderOf.GetValueOrDefault(record.Id));

    public EnvironmentRecord? Find(Guid id) => _records.GetValueOrDefault(id);

    public void Add(EnvironmentRecord record)
    {
        _orderOf[record.Id] = Interlocked.Increment(ref _order);
        _records[record.Id] = record;
    }

    public bool Remove(Guid id) => _records.TryRemove(id, out _);
}

// The controller as such a service is usually written: [ApiController] does model validation (automatic 400
// ProblemDetails), turns NotFound() into a ProblemDetails 404, and answers 415 for a body that is not JSON.
[ApiController]
[Route("ms/[controller]")]
public sealed class EnvironmentsController(EnvironmentStore store, TimeProvider clock) : ControllerBase
{
    [HttpGet]
    public IEnumerable<EnvironmentRecord> List() => store.All();

    // Not in the published spec, but CreatedAtAction needs an action to point at, and services like this have one.
    [HttpGet("{id:guid}")]
    public ActionResult<EnvironmentRecord> Get(Guid id) => store.Find(id) is { } record ? record : NotFound();

    [HttpPost]
    public ActionResult<EnvironmentRecord> Create(EnvironmentInput environment)
    {
        var now = clock.GetUtcNow();
        var record = new EnvironmentRecord { Id = Guid.NewGuid(), CreatedAt = now };
        record.Apply(environment, now);
        store.Add(record);
        return CreatedAtAction(nameof(Get), new { id = record.Id }, record);
    }

    // PUT replaces the record and answers 204 No Content, as the scaffolded ASP.NET controllers do.
    [HttpPut("{id:guid}")]
    public IActionResult Update(Guid id, EnvironmentInput environment)
    {
        if (store.Find(id) is not { } record) return NotFound();
        record.Apply(environment, clock.GetUtcNow());
        return NoContent();
    }

    [HttpDelete("{id:guid}")]
    public IActionResult Delete(Guid id) => store.Remove(id) ? NoContent() : NotFound();
}
