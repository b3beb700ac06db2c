import { Controller, Delete, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { PageMessages, TrashTexts, messageResponseSchema, pageDtoSchema, trashListSchema, type MessageResponse, type PageDto, type TrashedPageDto } from '@plink/contracts';
import { ApiDoc, CurrentUser, IdParamPipe, SignedInGuard, type SignedInUser } from '@plink/http';
import { GetPageService } from '../use-cases/get-page.service';
import { TrashService } from './trash.service';

const pageIdPipe = new IdParamPipe(PageMessages.pageNotFound);

/** Settings → Trash: the pages a creator deleted in the last 14 days, to restore or delete for good. */
@ApiTags('Pages')
@Controller('api')
export class TrashController {
  constructor(
    private readonly trash: TrashService,
    private readonly pages: GetPageService,
  ) {}

  @ApiDoc({ summary: 'Your deleted pages, kept 14 days', ok: trashListSchema })
  @Get('trash')
  @UseGuards(SignedInGuard)
  list(@CurrentUser() user: SignedInUser): Promise<TrashedPageDto[]> {
    return this.trash.list(user.id);
  }

  @ApiDoc({
    summary: 'Restore a page from the Trash',
    description: 'The page is live again at its address, with its leads and statistics. A Free account may restore it only when it has no other active page.',
    ok: pageDtoSchema,
    errors: { 403: TrashTexts.freePlanRestore, 404: TrashTexts.notInTrash },
  })
  @Post('pages/:id/restore')
  @HttpCode(200)
  @UseGuards(SignedInGuard)
  async restore(@CurrentUser() user: SignedInUser, @Param('id', pageIdPipe) id: number): Promise<PageDto> {
    const page = await this.trash.restore(user, id);
    return this.pages.execute(user.id, page.id);
  }

  @ApiDoc({
    summary: 'Delete a page in the Trash forever',
    description: 'Removes it now with its leads, analytics and uploaded images. Its address becomes free.',
    ok: messageResponseSchema,
    errors: { 404: TrashTexts.notInTrash },
  })
  @Delete('trash/:id')
  @HttpCode(200)
  @UseGuards(SignedInGuard)
  async deleteForever(@CurrentUser() user: SignedInUser, @Param('id', pageIdPipe) id: number): Promise<MessageResponse> {
    await this.trash.deleteForever(user.id, id);
    return { message: TrashTexts.deletedForever };
  }
}
