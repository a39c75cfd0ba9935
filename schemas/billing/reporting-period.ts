import * as z from 'zod';
import { REPORTING_PERIODS, reportingPeriodMs } from '../../values/reporting-period';

/**
 * `5m`, `1h`, `1d`…: checked by the billing run's own parser, so a meter or price that saves is one the run can bill.
 * The documents list the periods it accepts (leading zeros are accepted too, and not listed).
 */
export const ReportingPeriod = z
  .string()
  .max(64)
  .superRefine((value, ctx) => {
    try {
      reportingPeriodMs(value);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: (error as Error).message });
    }
  })
  .meta({ enum: [...REPORTING_PERIODS] });
