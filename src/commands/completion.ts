import type { Context } from '../context.js';
export async function completion(_ctx: Context, _shell: string): Promise<void> {}
export async function completeValues(_ctx: Context, _what: string): Promise<void> {}
