/**
 * The edge bench's toolwright tool: the 6-property echo (see `echo6-args.ts`) as a decorated
 * class with a class-validator DTO.
 */
import { IsBoolean, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { Description, Idempotent, ReadOnly, Tool } from 'toolwright';
import { DESCRIPTION, echo6 } from './echo6-args.js';

/** Declares the tool class (and its DTO class) named `name`: each call makes new classes. */
export function echo6Class(name: string): Function {
  class Echo6Args {
    @Description('The text to echo back') @IsString() @MaxLength(10_000) text!: string;
    @Description('How many times to repeat it (default 1)') @IsOptional() @IsInt() @Min(1) @Max(5) count?: number;
    @Description('What goes between the copies (default one space)')
    @IsOptional()
    @IsString()
    @MaxLength(10)
    separator?: string;
    @Description('What goes before the copies') @IsOptional() @IsString() @MaxLength(100) prefix?: string;
    @Description('What goes after the copies') @IsOptional() @IsString() @MaxLength(100) suffix?: string;
    @Description('Upper-case the answer') @IsOptional() @IsBoolean() upper?: boolean;
  }
  @Tool({ name, description: DESCRIPTION, args: Echo6Args })
  @ReadOnly()
  @Idempotent()
  class Echo6 {
    async execute(args: Echo6Args): Promise<string> {
      return echo6(args);
    }
  }
  return Echo6;
}
