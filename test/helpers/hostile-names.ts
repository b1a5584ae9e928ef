// Environment names that a shell would run, split or expand if a completion inserted them as they are, each with
// what is typed before Tab to complete to it alone: for the completion tests of every shell.
export const HOSTILE_NAMES: [typed: string, name: string][] = [
  ['ev', 'evil;id'],
  ['am', 'amp&id'],
  ['pi', 'pipe|id'],
  ['do', 'do$(id)'],
  ['ba', 'back`id`tick'],
  ['qu', "quo'te"],
  ['dq', 'dq"te'],
  ['ha', 'has space'],
  ['st', 'star*'],
  ['gt', 'gt>out'],
  ['ün', 'ünï'],
];
