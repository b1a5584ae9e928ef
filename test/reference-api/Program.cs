// A reference Environments API on ASP.NET Core, to check cip's sandbox against the framework itself. Run:
//   dotnet <out>/ReferenceApi.dll --port 5080 [--api-key K --read-only-api-key R --subscription-key S --enterprise-id E
//     --token-secret T]
// or the same settings as CIP_REF_PORT, CIP_REF_API_KEY, ... Port 0 picks a free port. It prints
// "reference-api listening on <base url>" once it accepts requests and stops on SIGTERM or Ctrl-C.
using System.Text;
using Microsoft.AspNetCore.Authentication.JwtBearer;
using Microsoft.IdentityModel.Tokens;
using ReferenceApi;

var builder = WebApplication.CreateBuilder(new WebApplicationOptions { Args = [] });
builder.Configuration.AddCommandLine(args, new Dictionary<string, string>
{
    ["--port"] = "Port",
    ["--api-key"] = "ApiKey",
    ["--read-only-api-key"] = "ReadOnlyApiKey",
    ["--subscription-key"] = "SubscriptionKey",
    ["--enterprise-id"] = "EnterpriseId",
    ["--token-secret"] = "TokenSecret",
});
// An argument, else CIP_REF_<NAME>, else the sandbox's default (so `cip sandbox`'s keys work here too).
string Setting(string key, string env, string fallback) =>
    builder.Configuration[key] ?? Environment.GetEnvironmentVariable(env) ?? fallback;
var keys = new GatewayKeys(
    Setting("ApiKey", "CIP_REF_API_KEY", "sandbox-api-key-0123456789"),
    Setting("ReadOnlyApiKey", "CIP_REF_READ_ONLY_API_KEY", "sandbox-readonly-key-0123456789"),
    Setting("SubscriptionKey", "CIP_REF_SUBSCRIPTION_KEY", "sandbox-subscription-key-0123456789"),
    Setting("EnterpriseId", "CIP_REF_ENTERPRISE_ID", "3f2b8c1e-9a4d-4e6f-8b7a-1c2d3e4f5a6b"),
    Setting("TokenSecret", "CIP_REF_TOKEN_SECRET", "sandbox-token-secret-0123456789abcdef"));
if (!Guid.TryParse(keys.EnterpriseId, out _))
{
    Console.Error.WriteLine($"reference-api: the enterprise id is not a GUID: {keys.EnterpriseId}");
    return 2;
}

builder.WebHost.UseUrls($"http://127.0.0.1:{Setting("Port", "CIP_REF_PORT", "0")}");
builder.Logging.ClearProviders();
// Test runs stop it with SIGTERM: a connection left open must not hold the exit for the default 30 s.
builder.Services.Configure<HostOptions>(options => options.ShutdownTimeout = TimeSpan.FromSeconds(2));
builder.Services.AddSingleton(keys);
builder.Services.AddSingleton(TimeProvider.System);
builder.Services.AddSingleton<EnvironmentStore>();
builder.Services.AddProblemDetails();
// Bearer tokens: HS256 JWTs signed with the token secret, judged by the framework's handler with its defaults
// (signature, lifetime with five minutes of clock skew, an exp required). Claims keep the names they have in the
// token. The sandbox's tokens and the tests' name no issuer or audience, so those are not checked.
builder.Services.AddAuthentication(JwtBearerDefaults.AuthenticationScheme).AddJwtBearer(options =>
{
    options.MapInboundClaims = false;
    options.TokenValidationParameters = new TokenValidationParameters
    {
        IssuerSigningKey = new SymmetricSecurityKey(Encoding.UTF8.GetBytes(keys.TokenSecret)),
        ValidateIssuer = false,
        ValidateAudience = false,
    };
});
builder.Services.AddControllers();

var app = builder.Build();
app.UseMiddleware<ApiManagement>();
app.MapGet("/ms/ping", () => "pong");
app.MapControllers();

app.Lifetime.ApplicationStarted.Register(() =>
{
    Console.WriteLine($"reference-api listening on {app.Urls.First()}/ms");
});
await app.RunAsync();
return 0;
