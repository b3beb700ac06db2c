import { Injectable } from '@nestjs/common';
import type { BillingAccount } from '../accounts/billing-account.entity';
import { BillingAccountsRepository } from '../accounts/billing-accounts.repository';

/** Billing's stored plan of a user (null: no plan change ever happened for them). */
@Injectable()
export class ReadPlanService {
  constructor(private readonly accounts: BillingAccountsRepository) {}

  find(userId: number): Promise<BillingAccount | null> {
    return this.accounts.find(userId);
  }
}
