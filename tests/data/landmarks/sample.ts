import { x } from "./x";

export interface Options {
  verbose: boolean;
}

export type Id = string;

enum Color {
  Red,
  Green,
}

export default class Parser {
  private depth = 0;

  constructor(private opts: Options) {}

  parse(text: string): Id {
    if (text.length > 0) {
      return text;
    }
    return "";
  }

  static async load(path: string) {
    return path;
  }
}

function helper(a: number) {
  return a * 2;
}

export const double = (n: number) => n * 2;

namespace Util {
  export function id<T>(v: T): T {
    return v;
  }
}
