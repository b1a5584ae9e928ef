// The reference API's build restores its one NuGet package first (test/helpers/reference-api.ts); a restore that
// fails must stop the reference tests with one line that says what was fetched and NuGet's own error, not pages
// of MSBuild output. The outputs below are what `dotnet restore -v:q` printed here.
import { describe, expect, it } from 'vitest';
import { restoreFailure } from '../helpers/reference-api.js';

const PREFIX = 'NuGet restore of the reference API failed (it needs Microsoft.AspNetCore.Authentication.JwtBearer from a NuGet source): ';

describe('restoreFailure', () => {
  it.each([
    [
      'a source without the package',
      '/tmp/r/src/ReferenceApi.csproj : error NU1101: Unable to find package Microsoft.AspNetCore.Authentication.JwtBearer. No packages exist with this id in source(s): /tmp/r/feed\n',
      'NU1101: Unable to find package Microsoft.AspNetCore.Authentication.JwtBearer. No packages exist with this id in source(s): /tmp/r/feed',
    ],
    [
      'a source out of reach, the project named after the message',
      '  Determining projects to restore...\n' +
        '/work/test/reference-api/ReferenceApi.csproj : error NU1301: Unable to load the service index for source https://api.nuget.org/v3/index.json. [/work/test/reference-api/ReferenceApi.csproj]\n' +
        '/work/test/reference-api/ReferenceApi.csproj : error NU1301: Unable to load the service index for source https://api.nuget.org/v3/index.json. [/work/test/reference-api/ReferenceApi.csproj]\n',
      'NU1301: Unable to load the service index for source https://api.nuget.org/v3/index.json.',
    ],
    [
      'no NuGet error, only a last line',
      'Something went wrong\n  MSBUILD : error MSB1009: Project file does not exist.\n',
      'MSBUILD : error MSB1009: Project file does not exist.',
    ],
    ['no output at all', '', 'dotnet said nothing'],
  ])('says %s in one line', (_what, output, said) => {
    const line = restoreFailure(output);
    expect(line).toBe(PREFIX + said);
    expect(line).not.toContain('\n');
  });
});
