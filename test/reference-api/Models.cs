using System.ComponentModel.DataAnnotations;

namespace ReferenceApi;

// What a client sends. Nullable properties are optional; [Required] Name is the one rule the API states.
public sealed class EnvironmentInput
{
    [Required]
    public string? Name { get; set; }
    public string? DisplayName { get; set; }
    public string? Description { get; set; }
    public string? Type { get; set; }
    public bool? IsActive { get; set; }
    public string? Region { get; set; }
    public List<string>? Tags { get; set; }
    // A 64-bit number: larger than JavaScript's safe integers, so a client must keep its digits.
    public long? QuotaBytes { get; set; }
    public EnvironmentSettings? Settings { get; set; }
}

public sealed class EnvironmentSettings
{
    public int? Retention { get; set; }
    public string? LogLevel { get; set; }
    public int? MaxConcurrency { get; set; }
}

// What the service stores and returns: the input's fields plus the ones the server owns.
public sealed class EnvironmentRecord
{
    public Guid Id { get; set; }
    public string Name { get; set; } = "";
    public string? DisplayName { get; set; }
    public string? Description { get; set; }
    public string? Type { get; set; }
    public bool? IsActive { get; set; }
    public string? Region { get; set; }
    public List<string>? Tags { get; set; }
    public long? QuotaBytes { get; set; }
    public EnvironmentSettings? Settings { get; set; }
    public DateTimeOffset CreatedAt { get; set; }
    public DateTimeOffset UpdatedAt { get; set; }

    public void Apply(EnvironmentInput input, DateTimeOffset now)
    {
        Name = input.Name!;
        DisplayName = input.DisplayName;
        Description = input.Description;
        Type = input.Type;
        IsActive = input.IsActive;
        Region = input.Region;
        Tags = input.Tags;
        QuotaBytes = input.QuotaBytes;
        Settings = input.Settings;
        UpdatedAt = now;
    }
}
